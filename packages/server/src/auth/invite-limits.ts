import { ServiceError, formatRateLimit, type RateLimitPolicy } from '@svc/protocol';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import { hashToken } from './token-secrets.js';

/** How many invites one workspace may send, and one address may be sent by all workspaces together (docs/members.md). */
export interface InvitePolicies {
  readonly perWorkspace: RateLimitPolicy;
  readonly perAddress: RateLimitPolicy;
}

/** 100 invites per workspace and 5 per address a day: a team's onboarding, never a flood of anyone's inbox. */
export const defaultInvitePolicies: InvitePolicies = { perWorkspace: { max: 100, windowSeconds: 86_400 }, perAddress: { max: 5, windowSeconds: 86_400 } };

/**
 * Counts invites, each one (sent by email or only shown) against its workspace and its
 * address, in the rate limiter (Redis when instances share it). The address is counted
 * under its SHA-256, so none is kept in memory snapshots or in Redis.
 */
export class InviteLimits {
  constructor(
    private readonly limiter: RateLimiter,
    readonly policies: InvitePolicies,
  ) {}

  /** Counts one invite of `email` (as stored: lower case) by the workspace; `rate_limited` past either limit. */
  async count(workspaceId: string, email: string): Promise<void> {
    const byWorkspace = await this.limiter.consume(this.policies.perWorkspace, workspaceId, 'invite');
    if (!byWorkspace.allowed) throw refusal('this workspace has sent', this.policies.perWorkspace, byWorkspace.resetSeconds);
    const byAddress = await this.limiter.consume(this.policies.perAddress, hashToken(`invite:${email}`), 'invite-address');
    if (!byAddress.allowed) throw refusal('this address has been sent', this.policies.perAddress, byAddress.resetSeconds);
  }
}

function refusal(who: string, policy: RateLimitPolicy, resetSeconds: number): ServiceError {
  return new ServiceError('rate_limited', `${who} as many invitations as it may (${formatRateLimit(policy)}); retry in ${resetSeconds} s`, { retryAfter: resetSeconds });
}
