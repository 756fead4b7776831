/**
 * A rate limit as people write it (`30/5m`): parsed for `svc serve --rate-limit`,
 * `svc forms set --rate-limit` and the form's settings page, and written back the same way
 * everywhere one is shown.
 */

/** N requests per window of W seconds. */
export interface RateLimitPolicy {
  readonly max: number;
  readonly windowSeconds: number;
}

/** Bounds of a per-form or server-wide limit (the specification leaves them open). */
export const rateLimitBounds = { max: { min: 1, max: 1_000_000 }, windowSeconds: { min: 1, max: 86_400 } } as const;

const unitSeconds: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400 };

/** Parses `30/5m`, `100/60s`, `1000/1h` or `30/300` (seconds); throws with the problem in words. */
export function parseRateLimit(text: string): RateLimitPolicy {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*([smhd]?)\s*$/.exec(text);
  if (!match) throw new Error(`"${text}" is not a rate limit; write it as requests/window, e.g. 30/5m`);
  const policy = { max: Number(match[1]), windowSeconds: Number(match[2]) * (unitSeconds[match[3] || 's'] ?? 1) };
  checkRateLimit(policy);
  return policy;
}

export function checkRateLimit(policy: RateLimitPolicy): void {
  const { max, windowSeconds } = rateLimitBounds;
  if (!Number.isInteger(policy.max) || policy.max < max.min || policy.max > max.max) {
    throw new Error(`a rate limit allows ${max.min} to ${max.max} requests per window`);
  }
  if (!Number.isInteger(policy.windowSeconds) || policy.windowSeconds < windowSeconds.min || policy.windowSeconds > windowSeconds.max) {
    throw new Error(`a rate-limit window is ${windowSeconds.min} second to ${windowSeconds.max / 3_600} hours`);
  }
}

const units: readonly [number, string][] = [
  [86_400, 'd'],
  [3_600, 'h'],
  [60, 'm'],
];

/** `{ max: 30, windowSeconds: 300 }` → `30/5m`: what parseRateLimit() reads back. */
export function formatRateLimit(policy: RateLimitPolicy): string {
  for (const [seconds, unit] of units) {
    if (policy.windowSeconds % seconds === 0) return `${policy.max}/${policy.windowSeconds / seconds}${unit}`;
  }
  return `${policy.max}/${policy.windowSeconds}s`;
}
