import { nextAttemptAt, type RetryPolicy } from './retry-policy.js';

/** What one attempt brought back from the receiver. */
export interface AttemptOutcome {
  /** Epoch milliseconds when the attempt started. */
  readonly startedAt: number;
  readonly durationMs: number;
  /** The answer's status; null when there was no answer (refused, timed out, network). */
  readonly statusCode: number | null;
  /** Why the attempt failed, when the status alone does not say. */
  readonly error: string | null;
  /** The first 64 KiB of the answer, as text. */
  readonly responseBody: string | null;
  readonly retryAfter: string | null;
  /** For an email: whether the SMTP server took it (emails have no status code). */
  readonly accepted?: boolean;
}

export type DeliveryVerdict =
  | { readonly status: 'succeeded' }
  | { readonly status: 'pending'; readonly nextAttemptAt: number }
  | { readonly status: 'failed'; readonly disableWebhook: string | null };

export const goneReason = 'the endpoint answered 410 Gone';

/**
 * Success is any 2xx (or an email the SMTP server accepted). 410 Gone fails the delivery and disables the webhook. Anything else is
 * retried while the budget lasts, then fails.
 */
export function decideDelivery(policy: RetryPolicy, outcome: AttemptOutcome, attemptInBudget: number, now: number, random?: () => number): DeliveryVerdict {
  const status = outcome.statusCode;
  if (outcome.accepted === true || (status !== null && status >= 200 && status < 300)) return { status: 'succeeded' };
  if (status === 410) return { status: 'failed', disableWebhook: goneReason };
  const retryAt = nextAttemptAt(policy, { attemptInBudget, statusCode: status, retryAfter: outcome.retryAfter, now }, random);
  return retryAt === null ? { status: 'failed', disableWebhook: null } : { status: 'pending', nextAttemptAt: retryAt };
}

/** The one-line summary of an attempt kept on the delivery (`last_error`). */
export function describeOutcome(outcome: AttemptOutcome): string | null {
  if (outcome.error !== null) return outcome.error;
  const status = outcome.statusCode;
  if (status === null || (status >= 200 && status < 300)) return null;
  return `answered ${status}`;
}
