import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebhookVerificationError, sign, verify } from './node.js';
import { syncOutcome } from './test-support/outcome.js';
import { SCENARIOS } from './test-support/scenarios.js';
import { ASCII_BODY, OTHER_SECRET, SECRET, T, VECTORS } from './test-support/vectors.js';

const verifyWith = (s: (typeof SCENARIOS)[number]) =>
  // The scenarios deliberately hold values of the wrong type too.
  verify(s.body as string, s.header as string, s.secrets as string, s.options);

describe('sign', () => {
  it.each(VECTORS)('matches the fixed vector: $name', ({ secret, body, header }) => {
    expect(sign(secret, body, T)).toBe(header);
  });

  it('signs a Buffer exactly like the same string', () => {
    expect(sign(SECRET, Buffer.from(ASCII_BODY), T)).toBe(sign(SECRET, ASCII_BODY, T));
  });

  it('keys the HMAC with the whole secret, prefix included, like createHmac(sha256, secret)', () => {
    const literal = createHmac('sha256', SECRET).update(`${T}.${ASCII_BODY}`).digest('hex');
    expect(sign(SECRET, ASCII_BODY, T)).toBe(`t=${T},v1=${literal}`);
  });

  it('defaults the timestamp to now, in unix seconds', () => {
    vi.useFakeTimers({ now: T * 1000 + 999 });
    expect(sign(SECRET, ASCII_BODY)).toBe(sign(SECRET, ASCII_BODY, T));
  });

  it.each([
    ['a fractional timestamp', () => sign(SECRET, ASCII_BODY, T + 0.5)],
    ['a negative timestamp', () => sign(SECRET, ASCII_BODY, -1)],
    ['a timestamp in milliseconds', () => sign(SECRET, ASCII_BODY, T * 1000)],
    ['NaN', () => sign(SECRET, ASCII_BODY, NaN)],
    ['a parsed body', () => sign(SECRET, { a: 1 } as unknown as string, T)],
    ['no secret', () => sign([], ASCII_BODY, T)],
  ])('throws a TypeError on %s', (_name, run) => {
    expect(run).toThrow(TypeError);
  });

  afterEach(() => {
    vi.useRealTimers();
  });
});

describe('verify', () => {
  it.each(SCENARIOS)('$name → $expected', (scenario) => {
    expect(syncOutcome(() => verifyWith(scenario))).toBe(scenario.expected);
  });

  it.each(VECTORS)('accepts every fixed vector: $name', ({ secret, body, header }) => {
    expect(verify(body, header, secret, { now: T })).toEqual({ timestamp: T });
  });

  it('round-trips sign() with the clock, both defaulted', () => {
    expect(verify(ASCII_BODY, sign([SECRET, OTHER_SECRET], ASCII_BODY), OTHER_SECRET).timestamp).toBeGreaterThan(T);
  });

  it('throws WebhookVerificationError, an Error with a name, a code and a useful message', () => {
    const error = catchError(() => verify(ASCII_BODY, `t=${T},v1=${'0'.repeat(64)}`, SECRET, { now: T }));
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'WebhookVerificationError', code: 'signature_mismatch' });
  });

  it('explains that the raw body is needed when handed parsed JSON', () => {
    const error = catchError(() => verify(JSON.parse(ASCII_BODY) as string, sign(SECRET, ASCII_BODY), SECRET));
    expect(error).toMatchObject({ code: 'body_not_raw' });
    expect((error as Error).message).toMatch(/raw request body/);
    expect((error as Error).message).toMatch(/express\.raw/);
    expect((error as Error).message).toMatch(/got an object/);
  });

  it('says which way the timestamp is off', () => {
    const header = sign(SECRET, ASCII_BODY, T);
    expect(() => verify(ASCII_BODY, header, SECRET, { now: T + 400 })).toThrow(/400 s old/);
    expect(() => verify(ASCII_BODY, header, SECRET, { now: T - 400 })).toThrow(/400 s in the future/);
  });

  it('never echoes header content into messages', () => {
    const error = catchError(() => verify(ASCII_BODY, 't=<script>,v1=x', SECRET));
    expect((error as Error).message).not.toContain('<script>');
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
