import { recordTokensUsed } from '../store/queries/tokens.js';
import type { Db } from '../store/store.js';

/**
 * Records when tokens were last used without writing on every request: at most once per
 * `intervalMs` per token (also across instances, since the stored time is consulted), and
 * off the request path: uses are collected and written together on a later turn of the
 * event loop. A failed write is reported and forgotten; it is only a last-used time.
 */
export class LastUsedRecorder {
  private readonly written = new Map<string, number>();
  private pending = new Map<string, number>();
  private writing: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void,
    private readonly intervalMs = 60_000,
  ) {}

  /** Notes a use of `tokenId` at `now`; `storedAt` is the last-used time read with the token. */
  touch(tokenId: string, now: number, storedAt: number | null): void {
    const last = Math.max(this.written.get(tokenId) ?? 0, storedAt ?? 0);
    if (now - last < this.intervalMs) return;
    this.written.set(tokenId, now);
    this.pending.set(tokenId, now);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  /** Writes what is pending; writes never overlap. */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.writePending()).catch(this.onError);
    return this.writing;
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const byTime = new Map<number, string[]>();
    for (const [id, at] of batch) byTime.set(at, [...(byTime.get(at) ?? []), id]);
    for (const [at, ids] of byTime) await recordTokensUsed(this.db, ids, at);
  }
}
