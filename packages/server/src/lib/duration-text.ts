/**
 * A duration in messages people read, in the largest unit that divides it: `15 min`, `10 s`,
 * `250 ms` (a build's timeout, a webhook delivery's).
 */
export function durationText(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1_000 === 0) return `${ms / 1_000} s`;
  return `${ms} ms`;
}
