/** A fixed window's count, as read at one moment. */
export interface CountedWindow {
  readonly count: number;
  /** When the window ends (ms since the epoch). */
  readonly expiresAt: number;
}

/** Where a rate limiter keeps its windows: in this process, or in Redis. */
export interface WindowCounter {
  /** Counts one for window `id` of limit `name`, opening a window of `windowSeconds` when none is open. */
  add(name: string, id: string, windowSeconds: number): CountedWindow | Promise<CountedWindow>;
  /** The open window `id` of limit `name`, counting nothing. */
  read(name: string, id: string): CountedWindow | undefined | Promise<CountedWindow | undefined>;
  close(): Promise<void>;
}

interface OpenWindow {
  count: number;
  expiresAt: number;
}

/** Ended windows dropped from the front as each new window opens: memory comes back after a flood. */
const endedDroppedPerWindow = 2;

/**
 * Fixed-window counters in memory, at most `capacity` of them (docs/server.md, "Limits and
 * timeouts"). The map keeps windows in the order they were last counted (each count moves
 * its window to the end), so the first entry is the window left alone longest: past the
 * capacity it is dropped, and that client starts a new window if it ever comes back. A
 * client that keeps coming, refused or not, stays counted; a flood of new clients costs the
 * windows of clients that have gone quiet, never the counting of newcomers. Every operation
 * is O(1): nothing scans the table.
 */
export class WindowTable {
  private readonly windows = new Map<string, OpenWindow>();

  constructor(
    readonly capacity: number,
    /** Told of each window dropped to stay within the capacity (not of ended ones). */
    private readonly onDropped: () => void = () => undefined,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error('a window table holds at least one window');
  }

  get size(): number {
    return this.windows.size;
  }

  /** Counts one for `key`, in a new window of `windowMs` when it has none open. */
  add(key: string, windowMs: number, now: number): CountedWindow {
    const open = this.windows.get(key);
    if (open !== undefined && open.expiresAt > now) {
      open.count += 1;
      this.windows.delete(key);
      this.windows.set(key, open);
      return { count: open.count, expiresAt: open.expiresAt };
    }
    this.start(key, 1, now + windowMs, now);
    return { count: 1, expiresAt: now + windowMs };
  }

  /** The open window of `key`, if any. */
  get(key: string, now: number): CountedWindow | undefined {
    const open = this.windows.get(key);
    return open !== undefined && open.expiresAt > now ? { count: open.count, expiresAt: open.expiresAt } : undefined;
  }

  /** Puts back a window saved before a restart; restore the least recent first. */
  restore(key: string, count: number, expiresAt: number, now: number): void {
    if (expiresAt > now && Number.isInteger(count) && count > 0) this.start(key, count, expiresAt, now);
  }

  private start(key: string, count: number, expiresAt: number, now: number): void {
    this.windows.delete(key);
    this.windows.set(key, { count, expiresAt });
    let ended = 0;
    for (const [leastRecent, window] of this.windows) {
      if (this.windows.size > this.capacity) {
        this.windows.delete(leastRecent);
        if (window.expiresAt > now) this.onDropped();
      } else if (window.expiresAt <= now && ended++ < endedDroppedPerWindow) this.windows.delete(leastRecent);
      else break;
    }
  }
}
