/**
 * Counts the keys a fixed-window limiter holds without keeping them: every key lives
 * exactly one window from its first point, so the keys alive now are the first points
 * counted during the last window. Arrivals are summed in 60 buckets of a window's
 * sixtieth (at least a second), which over-counts by at most one bucket.
 */
export class KeyBudget {
  private readonly bucketMs: number;
  private readonly buckets: number[];
  private readonly stamps: number[];

  constructor(windowSeconds: number) {
    this.bucketMs = Math.max(1_000, Math.ceil((windowSeconds * 1_000) / 60));
    const count = Math.ceil((windowSeconds * 1_000) / this.bucketMs) + 1;
    this.buckets = new Array<number>(count).fill(0);
    this.stamps = new Array<number>(count).fill(-1);
  }

  /** Keys created during the last window. */
  live(now: number): number {
    const current = Math.floor(now / this.bucketMs);
    let total = 0;
    for (let index = 0; index < this.buckets.length; index += 1) {
      if (current - this.stamps[index]! < this.buckets.length) total += this.buckets[index]!;
    }
    return total;
  }

  created(now: number): void {
    const stamp = Math.floor(now / this.bucketMs);
    const index = stamp % this.buckets.length;
    if (this.stamps[index] !== stamp) {
      this.stamps[index] = stamp;
      this.buckets[index] = 0;
    }
    this.buckets[index]! += 1;
  }
}
