/**
 * What the scheduled backups last did, for `/healthz` and `/metrics` (docs/server.md,
 * "Scheduled backups"). The reason of a failure goes to the log, not to these public pages.
 */
export class BackupStatus {
  lastSuccessAt: number | null = null;
  lastFailureAt: number | null = null;
  lastDurationMs: number | null = null;
  lastBytes: number | null = null;
  succeeded = 0;
  failed = 0;

  /** True when the last attempt failed. */
  get failing(): boolean {
    return this.lastFailureAt !== null && (this.lastSuccessAt === null || this.lastFailureAt > this.lastSuccessAt);
  }

  succeed(at: number, durationMs: number, bytes: number): void {
    this.lastSuccessAt = at;
    this.lastDurationMs = durationMs;
    this.lastBytes = bytes;
    this.succeeded += 1;
  }

  fail(at: number): void {
    this.lastFailureAt = at;
    this.failed += 1;
  }

  /** `/healthz`'s `backup`: when the last one was written, and whether the last attempt failed. */
  report(): { lastAt: string | null; failing: boolean; lastFailureAt: string | null } {
    return {
      lastAt: this.lastSuccessAt === null ? null : new Date(this.lastSuccessAt).toISOString(),
      failing: this.failing,
      lastFailureAt: this.lastFailureAt === null ? null : new Date(this.lastFailureAt).toISOString(),
    };
  }
}
