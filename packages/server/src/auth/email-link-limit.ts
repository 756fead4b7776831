import type { RateLimitPolicy } from '../ratelimit/policy.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import { hashToken } from './token-secrets.js';

/** The limit's name in the limiter's keys. */
const limitName = 'email-link';

/** At most 5 sign-in links per address per 15 minutes (docs/members.md). */
export const defaultEmailLinkPolicy: RateLimitPolicy = { max: 5, windowSeconds: 900 };

/**
 * How often one address may be sent a sign-in link, counted for every request, known
 * address or not (so the count itself tells nothing). The key is the address's SHA-256,
 * so no address is kept in memory snapshots or in Redis.
 */
export class EmailLinkLimit {
  constructor(
    private readonly limiter: RateLimiter,
    readonly policy: RateLimitPolicy = defaultEmailLinkPolicy,
  ) {}

  async allow(email: string): Promise<boolean> {
    return (await this.limiter.consume(this.policy, hashToken(`email:${email}`), limitName)).allowed;
  }
}
