import type { RateLimitDecision } from './rate-limiter.js';

/** The policy name used in the structured fields. */
const policyName = '"form"';

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-11):
 * `RateLimit-Policy: "form";q=30;w=300` and `RateLimit: "form";r=29;t=300`.
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-policy': `${policyName};q=${decision.policy.max};w=${decision.policy.windowSeconds}`,
    ratelimit: `${policyName};r=${decision.remaining};t=${decision.resetSeconds}`,
  };
  if (!decision.allowed) headers['retry-after'] = String(decision.resetSeconds);
  return headers;
}
