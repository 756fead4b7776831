import type { RateLimitDecision } from './rate-limiter.js';

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-11):
 * `RateLimit-Policy: "form";q=30;w=300` and `RateLimit: "form";r=29;t=300`. `name` is the
 * policy's name in the structured fields: `form` for the form endpoint, `cli` for the CLI API.
 */
export function rateLimitHeaders(decision: RateLimitDecision, name = 'form'): Record<string, string> {
  const policyName = `"${name}"`;
  const headers: Record<string, string> = {
    'ratelimit-policy': `${policyName};q=${decision.policy.max};w=${decision.policy.windowSeconds}`,
    ratelimit: `${policyName};r=${decision.remaining};t=${decision.resetSeconds}`,
  };
  if (!decision.allowed) headers['retry-after'] = String(decision.resetSeconds);
  return headers;
}
