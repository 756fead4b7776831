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

/** Windows that have ended, dropped from the front on each new window: memory comes back after a flood. */
const endedDroppedPerWindow = 2;

/**
 * Fixed-window counters in memory, at most `capacity` of them (docs/server.md, "Limits and
 * timeouts"). The map keeps windows in the order they started (a window that starts again
 * moves to the end), so the oldest window is the first entry: past the capacity it is
 * dropped, and that client starts a new window when it comes back. A flood of new clients
 * thus costs its oldest windows, never the counting of newcomers, and every operation is
 * O(1): nothing scans the table.
 */
export class WindowTable {
  private readonly windows = new Map<string, OpenWindow>();

  constructor(readonly capacity: number) {
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

  /** Puts back a window saved before a restart; restore the oldest first. */
  restore(key: string, count: number, expiresAt: number, now: number): void {
    if (expiresAt > now && Number.isInteger(count) && count > 0) this.start(key, count, expiresAt, now);
  }

  private start(key: string, count: number, expiresAt: number, now: number): void {
    this.windows.delete(key);
    this.windows.set(key, { count, expiresAt });
    let ended = 0;
    for (const [oldest, window] of this.windows) {
      if (this.windows.size > this.capacity) this.windows.delete(oldest);
      else if (window.expiresAt <= now && ended++ < endedDroppedPerWindow) this.windows.delete(oldest);
      else break;
    }
  }
}
