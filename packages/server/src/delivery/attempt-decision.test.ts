import { describe, expect, it } from 'vitest';
import { decideDelivery, describeOutcome, goneReason, type AttemptOutcome } from './attempt-decision.js';
import { retryPolicy } from './retry-policy.js';

const now = 1_800_000_000_000;
const outcome = (fields: Partial<AttemptOutcome>): AttemptOutcome => ({
  startedAt: now,
  durationMs: 5,
  statusCode: null,
  error: null,
  responseBody: null,
  retryAfter: null,
  ...fields,
});
const policy = retryPolicy([100, 200]);

describe('decideDelivery', () => {
  it.each([200, 201, 202, 204, 299])('counts %i as success', (statusCode) => {
    expect(decideDelivery(policy, outcome({ statusCode }), 1, now)).toEqual({ status: 'succeeded' });
  });

  it.each([[199], [300], [301], [302], [304], [400], [404], [429], [500], [503], [null]])('retries %s while the budget lasts', (statusCode) => {
    expect(decideDelivery(policy, outcome({ statusCode }), 1, now, () => 0.5)).toEqual({ status: 'pending', nextAttemptAt: now + 100 });
    expect(decideDelivery(policy, outcome({ statusCode }), 3, now)).toEqual({ status: 'failed', disableWebhook: null });
  });

  it('fails at once on 410 Gone and disables the webhook', () => {
    expect(decideDelivery(policy, outcome({ statusCode: 410 }), 1, now)).toEqual({ status: 'failed', disableWebhook: goneReason });
  });
});

describe('describeOutcome', () => {
  it('says what went wrong, or nothing for a success', () => {
    expect(describeOutcome(outcome({ statusCode: 204 }))).toBeNull();
    expect(describeOutcome(outcome({ statusCode: 500 }))).toBe('answered 500');
    expect(describeOutcome(outcome({ error: 'connection refused' }))).toBe('connection refused');
  });
});
