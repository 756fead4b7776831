import { ServiceError, type ErrorCode } from '@svc/protocol';
import type { RateLimitPolicy } from '../ratelimit/policy.js';
import type { RateLimitDecision, RateLimiter } from '../ratelimit/rate-limiter.js';

/** The limit's name in the RateLimit headers and in the limiter's keys. */
export const authFailuresName = 'auth';

/**
 * One scope for the whole instance: an address's failures count together wherever they
 * happen, except where a subject is named. A push webhook's failures count per address and
 * push URL (`git:{id}`): git hosts deliver every customer's pushes from shared addresses,
 * and one stranger's webhook with a wrong secret must not stop the others' pushes.
 */
const scopeOf = (subject: string | undefined) => (subject === undefined ? 'auth' : `auth:${subject}`);

/** 20 failed authentications per 5 minutes per client address (docs/privacy.md). */
export const defaultAuthFailurePolicy: RateLimitPolicy = { max: 20, windowSeconds: 300 };

/**
 * Failed authentications per client address, counted together for the CLI API's tokens,
 * `/login` and sign-in links: past the limit an address is refused before any token is
 * looked up (so a flood of guesses costs no hash and no query). Successes are not counted,
 * so a busy CI runner behind one address is never locked out by its own good requests.
 * The check reads the very window a failure is counted in, whatever else the limiter holds.
 */
export class FailedAuthentications {
  constructor(
    private readonly limiter: RateLimiter,
    readonly policy: RateLimitPolicy,
  ) {}

  /** Whether this address may try; its decision carries the headers to send either way. */
  check(ip: string, subject?: string): Promise<RateLimitDecision> {
    return this.limiter.peekClient(this.policy, { scope: scopeOf(subject), address: ip }, authFailuresName);
  }

  async record(ip: string, subject?: string): Promise<void> {
    await this.limiter.consumeClient(this.policy, { scope: scopeOf(subject), address: ip }, authFailuresName);
  }

  /**
   * One authentication attempt of `address`: refused with 429 before it runs when the
   * address is past the limit (`refused` gets the decision first, for the answer's headers),
   * else run; a failure that `counts` is counted, then thrown on.
   */
  async attempt<T>(address: string, run: () => Promise<T>, options: { counts: (error: unknown) => boolean; refused?: (decision: RateLimitDecision) => void }): Promise<T> {
    const allowed = await this.check(address);
    if (!allowed.allowed) {
      options.refused?.(allowed);
      throw this.refusal(allowed);
    }
    try {
      return await run();
    } catch (error) {
      if (options.counts(error)) await this.record(address);
      throw error;
    }
  }

  /** The 429 for an address past the limit. */
  refusal(decision: RateLimitDecision): ServiceError {
    return new ServiceError('rate_limited', `too many failed authentications from this address; retry in ${decision.resetSeconds} s`, { retryAfter: decision.resetSeconds });
  }
}

/** Counts a failure of this code (`unauthorized`, `not_found`…) as a failed authentication. */
export const failureOf = (code: ErrorCode) => (error: unknown): boolean => error instanceof ServiceError && error.code === code;
