/**
 * The quantiles of `values` (latencies, say), sorted once: `at(0.5)` is the median, `at(0.99)`
 * the p99 and `at(1)` the largest. Nearest rank below: the value with `floor(q × n)` values
 * under it (the last for q = 1); 0 when there are no values.
 */
export function quantiles(values: Iterable<number>): (q: number) => number {
  const sorted = [...values].sort((a, b) => a - b);
  return (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}
