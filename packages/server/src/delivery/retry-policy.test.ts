import { describe, expect, it } from 'vitest';
import { defaultRetryDelaysMs, nextAttemptAt, parseRetryAfter, retryPolicy } from './retry-policy.js';

const minute = 60_000;
const now = Date.UTC(2026, 10, 21, 10, 0, 0);
const middle = () => 0.5; // no jitter
const failed = (attemptInBudget: number, extra: { statusCode?: number | null; retryAfter?: string | null } = {}) => ({
  attemptInBudget,
  statusCode: extra.statusCode ?? 500,
  retryAfter: extra.retryAfter ?? null,
  now,
});

describe('the default retry schedule', () => {
  it('is 3 min, 15 min, 1 h, 4 h, 18 h: five retries, the last about 24 h after the first attempt', () => {
    expect(defaultRetryDelaysMs).toEqual([3 * minute, 15 * minute, 60 * minute, 240 * minute, 1080 * minute]);
    const total = defaultRetryDelaysMs.reduce((sum, delay) => sum + delay, 0);
    expect(total / 3_600_000).toBeGreaterThan(23);
    expect(total / 3_600_000).toBeLessThanOrEqual(24);
  });

  it('schedules each retry after its delay, then gives up after the fifth retry', () => {
    const policy = retryPolicy();
    defaultRetryDelaysMs.forEach((delay, index) => expect(nextAttemptAt(policy, failed(index + 1), middle)).toBe(now + delay));
    expect(nextAttemptAt(policy, failed(6), middle)).toBeNull();
  });
});

describe('jitter', () => {
  it('spreads a delay over ±10 %', () => {
    const policy = retryPolicy([1_000]);
    expect(nextAttemptAt(policy, failed(1), () => 0)).toBe(now + 900);
    expect(nextAttemptAt(policy, failed(1), () => 0.999_999)).toBe(now + 1_100);
    for (let i = 0; i < 200; i++) {
      const at = nextAttemptAt(policy, failed(1))!;
      expect(at - now).toBeGreaterThanOrEqual(900);
      expect(at - now).toBeLessThanOrEqual(1_100);
    }
  });
});

describe('Retry-After', () => {
  const policy = retryPolicy([100, 200, 5_000]);

  it.each([429, 503])('is a lower bound on a %i answer', (statusCode) => {
    expect(nextAttemptAt(policy, failed(1, { statusCode, retryAfter: '2' }), middle)).toBe(now + 2_000);
  });

  it('never brings a retry earlier than the schedule', () => {
    expect(nextAttemptAt(policy, failed(3, { statusCode: 503, retryAfter: '1' }), middle)).toBe(now + 5_000);
  });

  it('is cut to 18 hours, or to the longest delay of a schedule with longer ones', () => {
    expect(nextAttemptAt(policy, failed(1, { statusCode: 429, retryAfter: '86400' }), middle)).toBe(now + 18 * 60 * minute);
    expect(nextAttemptAt(retryPolicy([1_000, 20 * 60 * minute]), failed(1, { statusCode: 429, retryAfter: '86400' }), middle)).toBe(now + 20 * 60 * minute);
  });

  it('is ignored on other statuses and when invalid', () => {
    expect(nextAttemptAt(policy, failed(1, { statusCode: 500, retryAfter: '2' }), middle)).toBe(now + 100);
    expect(nextAttemptAt(policy, failed(1, { statusCode: null, retryAfter: '2' }), middle)).toBe(now + 100);
    expect(nextAttemptAt(policy, failed(1, { statusCode: 429, retryAfter: 'soon' }), middle)).toBe(now + 100);
  });

  it('does not give a delivery more retries', () => {
    expect(nextAttemptAt(policy, failed(4, { statusCode: 429, retryAfter: '1' }), middle)).toBeNull();
  });

  it('accepts an HTTP date', () => {
    const date = new Date(now + 3_000).toUTCString();
    expect(nextAttemptAt(policy, failed(1, { statusCode: 503, retryAfter: date }), middle)).toBe(now + 3_000);
  });
});

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['120', 120_000],
    [' 7 ', 7_000],
    [new Date(now + 60_000).toUTCString(), 60_000],
    ['Sat, 21 Nov 2026 10:00:30 GMT', 30_000],
    [new Date(now - 60_000).toUTCString(), 0],
    ['-5', null],
    ['1.5', null],
    ['', null],
    ['soon', null],
    ['1e3', null],
    ['99999999999999999999', null],
  ])('%j → %j', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe('retryPolicy', () => {
  it('refuses negative or non-finite delays', () => {
    expect(() => retryPolicy([-1])).toThrow();
    expect(() => retryPolicy([Number.NaN])).toThrow();
  });

  it('allows an empty schedule: a single attempt', () => {
    expect(nextAttemptAt(retryPolicy([]), failed(1))).toBeNull();
  });
});
