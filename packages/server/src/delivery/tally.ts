/** Counts per key, and in all; a key whose count falls to zero is forgotten. */
export class Tally {
  private readonly counts = new Map<string, number>();
  total = 0;

  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  add(key: string): void {
    this.counts.set(key, this.get(key) + 1);
    this.total += 1;
  }

  remove(key: string): void {
    const count = this.get(key);
    if (count <= 1) this.counts.delete(key);
    else this.counts.set(key, count - 1);
    this.total -= 1;
  }
}
