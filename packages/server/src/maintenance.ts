import type { Logger } from 'pino';
import type { Metrics } from './observability/metrics.js';
import { releaseContents, sweepContents } from './contents/stored-contents.js';
import { sessionIdleMs } from './settings/session/session-store.js';
import { removeOldAuditEntries } from './store/queries/audit-log.js';
import { deleteExpiredIdempotencyKeys } from './store/queries/idempotency.js';
import { deleteExpiredPushDeliveries } from './store/queries/push-delivery-ids.js';
import { deleteFinishedMail } from './store/queries/mail-outbox.js';
import { pushReplayWindowMs } from './operations/inbound-git.js';
import { deleteExpiredRateLimits } from './store/queries/rate-limits.js';
import { disableLongFailingWebhooks } from './store/queries/record-attempts.js';
import {
  formsWithRetention,
  projectsWithRequestRetention,
  removeDeliveredEvents,
  removeFinishedDeliveries,
  removeOldRequests,
  removeOldSpamRequests,
  removeOldSubmissions,
} from './store/queries/retention.js';
import { deleteExpiredSessions } from './store/queries/sessions.js';
import { deleteExpiredSolutions } from './store/queries/spent-solutions.js';
import type { Store } from './store/store.js';

export interface MaintenanceOptions {
  readonly idempotencyWindowMs: number;
  readonly intervalMs: number;
  /** Finished deliveries (with their attempts) and their events are kept this long. */
  readonly retentionDeliveriesMs: number;
  /** Spam submissions and spam Pinpoints requests are kept this long. */
  readonly retentionSpamMs: number;
  /** Audit log entries are kept this long. */
  readonly retentionAuditMs: number;
  /** A webhook whose attempts all failed for this long is disabled. */
  readonly webhookFailureWindowMs: number;
  /** Stored contents nothing holds are removed once last stored this long ago (the sweep's grace). */
  readonly sweepGraceMs: number;
  readonly logger: Logger;
  readonly metrics?: Metrics;
}

function failingReason(windowMs: number): string {
  const days = windowMs / 86_400_000;
  const span = Number.isInteger(days) ? `${days} ${days === 1 ? 'day' : 'days'}` : `${Math.round(windowMs / 1000)} s`;
  return `every attempt failed for ${span}`;
}

/** How long a sent or given-up email's row (never its message) is kept, for diagnosis. */
const finishedMailKeptMs = 24 * 60 * 60 * 1000;

/** Rows per removal statement, and removals per kind in one run: each transaction stays short. */
const batchRows = 500;
const batchesPerRun = 40;

/**
 * Periodic clean-up, in every process (every removal is idempotent) and never on the
 * request path: idempotency keys past their window, push delivery ids older than a day, expired rate-limit snapshots, dead
 * settings-area sessions and sign-in links, and retention (docs/privacy.md): old finished
 * deliveries and their events, old spam (submissions and Pinpoints requests), old audit
 * log entries, submissions past their form's retention and requests past their project's,
 * in small batches, each its own transaction;
 * then the sweep of stored contents nothing holds.
 */
export function startMaintenance(store: Store, options: MaintenanceOptions): { stop(): Promise<void>; runOnce(): Promise<void> } {
  let running: Promise<void> | null = null;
  const run = async (): Promise<void> => {
    const now = Date.now();
    await deleteExpiredIdempotencyKeys(store.db, now - options.idempotencyWindowMs);
    await deleteExpiredPushDeliveries(store.db, now - pushReplayWindowMs);
    await deleteFinishedMail(store.db, now - finishedMailKeptMs);
    await deleteExpiredRateLimits(store.db, now);
    await deleteExpiredSessions(store.db, now, now - sessionIdleMs);
    await deleteExpiredSolutions(store.db, now);
    const disabled = await store.transaction((trx) => disableLongFailingWebhooks(trx, now - options.webhookFailureWindowMs, failingReason(options.webhookFailureWindowMs), now));
    if (disabled.length > 0) options.logger.warn({ webhooks: disabled }, 'disabled webhooks whose every attempt failed for the whole failure window');
    await removeInBatches('deliveries', (db) => removeFinishedDeliveries(db, now - options.retentionDeliveriesMs, batchRows));
    await removeInBatches('events', (db) => removeDeliveredEvents(db, now - options.retentionDeliveriesMs, batchRows));
    await removeWithFiles('spam', (db) => removeOldSubmissions(db, { spam: true }, now - options.retentionSpamMs, batchRows));
    await removeWithFiles('spam_requests', (db) => removeOldSpamRequests(db, now - options.retentionSpamMs, batchRows));
    await removeInBatches('audit', (db) => removeOldAuditEntries(db, now - options.retentionAuditMs, batchRows));
    for (const form of await formsWithRetention(store.db)) {
      await removeWithFiles('submissions', (db) => removeOldSubmissions(db, { formId: form.id }, now - form.retention_seconds * 1000, batchRows));
    }
    for (const project of await projectsWithRequestRetention(store.db)) {
      await removeWithFiles('requests', (db) => removeOldRequests(db, project.id, now - project.request_retention_seconds * 1000, batchRows));
    }
    const swept = await sweepContents(store, now - options.sweepGraceMs);
    if (swept > 0) options.metrics?.retentionRemoved.inc({ kind: 'files' }, swept);
  };
  const removeInBatches = async (kind: string, remove: (db: Store['db']) => Promise<number>): Promise<void> => {
    for (let batch = 0; batch < batchesPerRun; batch++) {
      const removed = await store.transaction((trx) => remove(trx));
      if (removed > 0) options.metrics?.retentionRemoved.inc({ kind }, removed);
      if (removed < batchRows) return;
    }
  };
  /** Removes rows in batches (submissions, spam requests), then the files nothing holds any more. */
  const removeWithFiles = async (kind: string, remove: (db: Store['db']) => Promise<{ removed: number; files: string[] }>): Promise<void> => {
    for (let batch = 0; batch < batchesPerRun; batch++) {
      const { removed, files } = await store.transaction((trx) => remove(trx));
      if (removed > 0) options.metrics?.retentionRemoved.inc({ kind }, removed);
      await releaseContents(store, files);
      if (removed < batchRows) break;
    }
  };
  const runOnce = (): Promise<void> => {
    running ??= run().finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => {
    runOnce().catch((error: unknown) => options.logger.warn({ err: error }, 'maintenance failed; will retry'));
  }, options.intervalMs);
  timer.unref();
  return {
    // A run in progress finishes before the store it uses is closed.
    stop: async () => {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
    runOnce,
  };
}
