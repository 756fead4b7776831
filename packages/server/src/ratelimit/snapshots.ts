import { deleteExpiredRateLimits, loadRateLimits, saveRateLimits, type RateLimitSnapshot } from '../store/queries/rate-limits.js';
import type { Db } from '../store/store.js';
import type { CountedWindow } from './window-table.js';

/**
 * Write-behind persistence of in-memory rate-limit windows: windows counted since the last
 * write are upserted into `rate_limits` about once a second (and on shutdown), and loaded
 * at start. A crash can forget at most the last second of counting; the request path never
 * waits for a write. A window's id holds no client address (client-keys.ts).
 */
export class RateLimitSnapshots {
  private dirty = new Set<string>();
  private read: ((id: string) => CountedWindow | undefined) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** The windows still open, oldest end first (the order to restore them in). */
  async load(now = Date.now()): Promise<RateLimitSnapshot[]> {
    await deleteExpiredRateLimits(this.db, now);
    const rows = await loadRateLimits(this.db);
    return rows.sort((a, b) => a.expires_at - b.expires_at);
  }

  /** Starts writing, reading each changed window with `read`. */
  start(read: (id: string) => CountedWindow | undefined): void {
    this.read = read;
    this.timer = setInterval(() => void this.write(), this.intervalMs);
    this.timer.unref();
  }

  touch(id: string): void {
    this.dirty.add(id);
  }

  /** Writes what changed; writes never overlap. */
  write(): Promise<void> {
    this.writing = this.writing.then(() => this.writeDirty()).catch(this.onError);
    return this.writing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.write();
  }

  private async writeDirty(): Promise<void> {
    if (this.dirty.size === 0 || !this.read) return;
    const dirty = this.dirty;
    this.dirty = new Set();
    const rows: RateLimitSnapshot[] = [];
    for (const id of dirty) {
      // A window dropped to keep memory bounded, or ended, is not written.
      const window = this.read(id);
      if (window) rows.push({ key: id, points: window.count, expires_at: window.expiresAt });
    }
    await saveRateLimits(this.db, rows);
  }
}
