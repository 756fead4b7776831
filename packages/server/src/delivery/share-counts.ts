/**
 * How many deliveries this worker holds per key (a webhook, a project), against a limit
 * per key: the one mechanism that keeps a slow receiver, or a project with many of them,
 * to its share of the request slots (docs/webhooks.md). The limit may depend on the key.
 */
export class ShareCounts {
  private readonly counts = new Map<string, number>();

  constructor(private readonly limitOf: (key: string) => number) {}

  hasRoom(key: string): boolean {
    return (this.counts.get(key) ?? 0) < this.limitOf(key);
  }

  /** How many more `key` may have (0 when at or over its limit). */
  room(key: string): number {
    return Math.max(0, this.limitOf(key) - (this.counts.get(key) ?? 0));
  }

  /** True when `key` has at most half its limit (rounded down). */
  isHalfEmpty(key: string): boolean {
    return (this.counts.get(key) ?? 0) <= Math.floor(this.limitOf(key) / 2);
  }

  add(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** True when `key` was at (or over) its limit and now has room again. */
  remove(key: string): boolean {
    const count = this.counts.get(key) ?? 0;
    if (count <= 1) this.counts.delete(key);
    else this.counts.set(key, count - 1);
    return count >= this.limitOf(key) && count - 1 < this.limitOf(key);
  }

  atLimit(): string[] {
    return [...this.counts].filter(([key, count]) => count >= this.limitOf(key)).map(([key]) => key);
  }
}
