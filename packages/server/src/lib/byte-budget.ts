/**
 * Bytes that many requests of a process may hold at once (in memory, or spooled to disk):
 * each takes its bytes as it reads them and gives them back when done; a take past the
 * bound is refused, and the caller falls back or refuses.
 */
export class ByteBudget {
  private used = 0;

  constructor(readonly maxBytes: number) {}

  take(bytes: number): boolean {
    if (this.used + bytes > this.maxBytes) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }

  get inUse(): number {
    return this.used;
  }
}
