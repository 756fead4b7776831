import type { RateLimiterMemory } from 'rate-limiter-flexible';
import { deleteExpiredRateLimits, loadRateLimits, saveRateLimits, type RateLimitSnapshot } from '../store/queries/rate-limits.js';
import type { Db } from '../store/store.js';

interface SnapshotRow {
  key: string;
  value: number;
  expiresAt: number;
}

const separator = '|';

/**
 * Write-behind persistence of in-memory rate-limit counters: counters touched since the
 * last write are upserted into `rate_limits` about once a second (and on shutdown), and
 * restored when a limiter for the same policy is made after a restart. A crash can forget
 * at most the last second of counting; the request path never waits for a write.
 */
export class RateLimitSnapshots {
  private readonly restoring = new Map<string, SnapshotRow[]>();
  private readonly attached = new Map<string, RateLimiterMemory>();
  private dirty = new Map<string, Set<string>>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  async load(now = Date.now()): Promise<void> {
    await deleteExpiredRateLimits(this.db, now);
    const rows = await loadRateLimits(this.db);
    for (const row of rows) {
      const at = row.key.indexOf(separator);
      if (at < 0) continue;
      const prefix = row.key.slice(0, at);
      const list = this.restoring.get(prefix) ?? [];
      list.push({ key: row.key.slice(at + 1), value: row.points, expiresAt: row.expires_at });
      this.restoring.set(prefix, list);
    }
    this.timer = setInterval(() => void this.write(), this.intervalMs);
    this.timer.unref();
  }

  attach(prefix: string, limiter: RateLimiterMemory): void {
    this.attached.set(prefix, limiter);
    const rows = this.restoring.get(prefix);
    if (rows) {
      limiter.restore({ version: 1, storage: rows });
      this.restoring.delete(prefix);
    }
  }

  touch(prefix: string, key: string): void {
    let keys = this.dirty.get(prefix);
    if (!keys) {
      keys = new Set();
      this.dirty.set(prefix, keys);
    }
    keys.add(key);
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
    if (this.dirty.size === 0) return;
    const dirty = this.dirty;
    this.dirty = new Map();
    const rows: RateLimitSnapshot[] = [];
    for (const [prefix, keys] of dirty) {
      const limiter = this.attached.get(prefix);
      if (!limiter) continue;
      for (const key of keys) {
        const state = await limiter.get(key);
        if (!state || state.msBeforeNext <= 0) continue;
        rows.push({ key: `${prefix}${separator}${key}`, points: state.consumedPoints, expires_at: Date.now() + state.msBeforeNext });
      }
    }
    await saveRateLimits(this.db, rows);
  }
}
