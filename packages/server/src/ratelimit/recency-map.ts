/** An entry of a `RecencyMap`: `used` is set when it is used again, and cleared by the map. */
export interface Recent {
  used: boolean;
}

/** Entries that have ended, dropped from the front each time one is put: memory comes back after a flood. */
const endedDroppedPerPut = 2;
/** Used entries moved to the back for each one dropped, at most: a put never walks the whole map. */
const secondChancesPerDrop = 8;

/**
 * A map of at most `capacity` entries that drops the least recently used first, by the
 * CLOCK rule (a second chance): entries are kept in the order they were put; past the
 * capacity the first one goes, unless it was used since it was put or last passed over, in
 * which case it is moved to the back with its mark cleared. Using an entry only sets its
 * mark: moving a map entry on every use (delete, then set) left a hole in its hash chain
 * each time, and V8 walked all of them on each lookup until the next rehash (231 µs a
 * count for one client among 50,000, measured).
 */
export class RecencyMap<V extends Recent> {
  private readonly entries = new Map<string, V>();

  constructor(
    readonly capacity: number,
    /** Whether an entry has ended by `now` (it can go without counting as dropped). */
    private readonly ended: (value: V, now: number) => boolean,
    /** Told of each entry dropped before it ended. */
    private readonly onDropped: () => void = () => undefined,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error('a recency map holds at least one entry');
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry of `key`, marked as used. */
  use(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) value.used = true;
    return value;
  }

  /** The entry of `key`, not marked. */
  peek(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Puts `value` at the back (unused), then drops what is over the capacity. */
  put(key: string, value: V, now: number): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    let ended = 0;
    let secondChances = 0;
    for (;;) {
      const first = this.entries.entries().next();
      if (first.done) return;
      const [firstKey, firstValue] = first.value;
      const over = this.entries.size > this.capacity;
      if (this.ended(firstValue, now) && (over || ended++ < endedDroppedPerPut)) {
        this.entries.delete(firstKey);
      } else if (!over) {
        return;
      } else if (firstValue.used && secondChances++ < secondChancesPerDrop) {
        firstValue.used = false;
        this.entries.delete(firstKey);
        this.entries.set(firstKey, firstValue);
      } else {
        this.entries.delete(firstKey);
        this.onDropped();
        secondChances = 0;
      }
    }
  }
}
