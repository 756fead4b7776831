/** N requests per window, per client IP, per form endpoint. */
export interface RateLimitPolicy {
  readonly max: number;
  readonly windowSeconds: number;
}

/** The specification's default: 30 requests per 5 minutes. */
export const defaultFormPolicy: RateLimitPolicy = { max: 30, windowSeconds: 300 };

/** The specification's CLI limit: 600 requests per minute per token. */
export const defaultCliPolicy: RateLimitPolicy = { max: 600, windowSeconds: 60 };

/** Bounds of a per-form or server-wide policy (the specification leaves them open). */
export const policyBounds = { max: { min: 1, max: 1_000_000 }, windowSeconds: { min: 1, max: 86_400 } } as const;

const unitSeconds: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** Parses `30/5m`, `100/60s`, `1000/1h` or `30/300` (seconds). */
export function parsePolicy(text: string): RateLimitPolicy {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*([smhd]?)\s*$/.exec(text);
  if (!match) throw new Error(`"${text}" is not a rate limit; write it as requests/window, e.g. 30/5m`);
  const policy = { max: Number(match[1]), windowSeconds: Number(match[2]) * (unitSeconds[match[3] || 's'] ?? 1) };
  checkPolicy(policy);
  return policy;
}

export function checkPolicy(policy: RateLimitPolicy): void {
  const { max, windowSeconds } = policyBounds;
  if (!Number.isInteger(policy.max) || policy.max < max.min || policy.max > max.max) {
    throw new Error(`a rate limit allows ${max.min} to ${max.max} requests per window`);
  }
  if (!Number.isInteger(policy.windowSeconds) || policy.windowSeconds < windowSeconds.min || policy.windowSeconds > windowSeconds.max) {
    throw new Error(`a rate-limit window is ${windowSeconds.min} second to ${windowSeconds.max / 3600} hours`);
  }
}

export function formatPolicy(policy: RateLimitPolicy): string {
  return `${policy.max}/${policy.windowSeconds}s`;
}
