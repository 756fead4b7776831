import { ServiceError } from '@svc/protocol';
import { setBounded } from '../lib/bounded-map.js';
import { formatBytes } from '../lib/format-bytes.js';
import { projectUploadBytes } from '../store/queries/contents.js';
import type { Db } from '../store/store.js';

/** How long a project's usage read from the database is used before it is read again. */
const usageTtlMs = 10_000;
/** Projects whose usage is held at once (the oldest go first). */
const maxProjects = 10_000;

/**
 * The per-project quota of stored uploads (docs/hosting.md, "Upload quota"): what a
 * project's form submissions' files and Pinpoints screenshots add up to. Once they reach
 * the quota, the public endpoints refuse uploads before storing them. The usage is read from
 * the database at most every 10 seconds, plus what this instance let through since; so a
 * burst across instances may pass the quota by a few uploads, never by more.
 */
export class UploadQuota {
  private readonly usage = new Map<string, { bytes: number; at: number }>();

  constructor(
    private readonly db: Db,
    readonly quotaBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts `bytes` more for the project, or refuses them with 413 `quota_exceeded` once its
   * stored uploads have reached the quota (the upload that crosses it is still taken).
   */
  async allow(projectId: string, bytes: number): Promise<void> {
    if (bytes === 0) return;
    const now = this.now();
    let entry = this.usage.get(projectId);
    if (!entry || now - entry.at >= usageTtlMs) {
      entry = { bytes: await projectUploadBytes(this.db, projectId), at: now };
      setBounded(this.usage, projectId, entry, maxProjects);
    }
    if (entry.bytes >= this.quotaBytes) {
      throw new ServiceError('quota_exceeded', `the project's stored uploads have reached their quota of ${formatBytes(this.quotaBytes)}; nothing was stored`, { quotaBytes: this.quotaBytes });
    }
    // Counted at once, so that uploads arriving together are counted against each other.
    entry.bytes += bytes;
  }
}
