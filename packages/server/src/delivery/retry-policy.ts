/**
 * When a failed delivery is tried again: the policy is data, and `nextAttemptAt` is the one
 * function that turns it, the attempt just made and the receiver's answer into a time.
 */
export interface RetryPolicy {
  /** The wait before each retry, in order; a delivery gets `delaysMs.length` retries. */
  readonly delaysMs: readonly number[];
  /** Each wait is spread uniformly over ±jitter of itself (0.1 = ±10 %). */
  readonly jitter: number;
  /** Answers whose Retry-After header is honoured. */
  readonly retryAfterStatuses: readonly number[];
  /** The longest wait a Retry-After may ask for; longer ones are cut to this. */
  readonly maxRetryAfterMs: number;
}

const minute = 60_000;
const hour = 60 * minute;

/** docs/webhooks.md: five retries, the last about 24 hours after the first attempt. */
export const defaultRetryDelaysMs: readonly number[] = [3 * minute, 15 * minute, 1 * hour, 4 * hour, 18 * hour];

/** Retry-After is honoured up to at least this long, whatever the schedule. */
export const maxRetryAfterFloorMs = 18 * hour;

export function retryPolicy(delaysMs: readonly number[] = defaultRetryDelaysMs): RetryPolicy {
  if (delaysMs.some((delay) => !Number.isFinite(delay) || delay < 0)) throw new Error('retry delays must be durations of zero or more');
  return {
    delaysMs: [...delaysMs],
    jitter: 0.1,
    retryAfterStatuses: [429, 503],
    // A receiver may push a retry out by up to 18 hours (the longest default wait), or by
    // the longest wait of a schedule with longer ones.
    maxRetryAfterMs: Math.max(maxRetryAfterFloorMs, ...delaysMs),
  };
}

export interface FailedAttempt {
  /** Which attempt of the current retry budget just failed: 1 for the first. */
  readonly attemptInBudget: number;
  readonly statusCode: number | null;
  /** The raw Retry-After header of the answer, if any. */
  readonly retryAfter: string | null;
  /** When the attempt finished, epoch milliseconds. */
  readonly now: number;
}

/**
 * When to try again after a failed attempt, or null when the budget is spent. The scheduled
 * wait gets jitter; on 429 and 503 a valid Retry-After (seconds or HTTP date) is a lower
 * bound, cut to `maxRetryAfterMs`: a retry never comes earlier than the schedule says nor
 * earlier than the receiver asked (up to 18 hours). It still uses up one retry.
 */
export function nextAttemptAt(policy: RetryPolicy, attempt: FailedAttempt, random: () => number = Math.random): number | null {
  const scheduled = policy.delaysMs[attempt.attemptInBudget - 1];
  if (scheduled === undefined) return null;
  let wait = Math.round(scheduled * (1 + policy.jitter * (2 * random() - 1)));
  if (attempt.statusCode !== null && policy.retryAfterStatuses.includes(attempt.statusCode) && attempt.retryAfter !== null) {
    const asked = parseRetryAfter(attempt.retryAfter, attempt.now);
    if (asked !== null) wait = Math.max(wait, Math.min(asked, policy.maxRetryAfterMs));
  }
  return attempt.now + Math.max(0, wait);
}

/** Retry-After as milliseconds from `now`: delay-seconds or an HTTP date; null when invalid. */
export function parseRetryAfter(value: string, now: number): number | null {
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return Number.isSafeInteger(seconds) ? seconds * 1_000 : null;
  }
  // An HTTP date names its weekday or month in letters; a bare number is not a date.
  if (!/[a-z]/i.test(text)) return null;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
