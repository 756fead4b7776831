import { type Recent, RecencyMap } from './recency-map.js';

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

interface OpenWindow extends Recent {
  count: number;
  readonly expiresAt: number;
}

/**
 * Fixed-window counters in memory, at most `capacity` of them (docs/server.md, "Limits and
 * timeouts"). Past the capacity the window counted least recently is dropped (by the CLOCK
 * rule of recency-map.ts), and that client starts a new window if it ever comes back. A
 * client that keeps coming, refused or not, stays counted; a flood of new clients costs the
 * windows of clients that have gone quiet, never the counting of newcomers. Every operation
 * is O(1): nothing scans the table.
 */
export class WindowTable {
  private readonly windows: RecencyMap<OpenWindow>;

  constructor(
    readonly capacity: number,
    /** Told of each open window dropped to stay within the capacity. */
    onDropped: () => void = () => undefined,
  ) {
    this.windows = new RecencyMap(capacity, (window, now) => window.expiresAt <= now, onDropped);
  }

  get size(): number {
    return this.windows.size;
  }

  /** Counts one for `key`, in a new window of `windowMs` when it has none open. */
  add(key: string, windowMs: number, now: number): CountedWindow {
    const open = this.windows.use(key);
    if (open !== undefined && open.expiresAt > now) {
      open.count += 1;
      return { count: open.count, expiresAt: open.expiresAt };
    }
    this.windows.put(key, { count: 1, expiresAt: now + windowMs, used: false }, now);
    return { count: 1, expiresAt: now + windowMs };
  }

  /** The open window of `key`, if any. */
  get(key: string, now: number): CountedWindow | undefined {
    const open = this.windows.peek(key);
    return open !== undefined && open.expiresAt > now ? { count: open.count, expiresAt: open.expiresAt } : undefined;
  }

  /** Puts back a window saved before a restart; restore the least recent first. */
  restore(key: string, count: number, expiresAt: number, now: number): void {
    if (expiresAt > now && Number.isInteger(count) && count > 0) this.windows.put(key, { count, expiresAt, used: false }, now);
  }
}
