import type { RateLimit } from '@svc/protocol/api';

const units: readonly [number, string][] = [
  [86_400, 'd'],
  [3_600, 'h'],
  [60, 'm'],
];

/** `{ max: 30, windowSeconds: 300 }` → `30/5m`, as `svc forms set-rate-limit` takes it. */
export function formatRateLimit(limit: RateLimit): string {
  for (const [seconds, unit] of units) {
    if (limit.windowSeconds % seconds === 0) return `${limit.max}/${limit.windowSeconds / seconds}${unit}`;
  }
  return `${limit.max}/${limit.windowSeconds}s`;
}
