import type { SubmissionFile } from '@svc/protocol';
import type { Db } from '../store.js';

/**
 * Removals of the retention job (docs/privacy.md): each takes at most `limit` rows, so a
 * transaction stays short, and each is idempotent, so instances sharing a database may run
 * them at the same time.
 */

/** Finished deliveries completed before `before`, with their attempts. */
export async function removeFinishedDeliveries(db: Db, before: number, limit: number): Promise<number> {
  const ids = (
    await db.selectFrom('deliveries').select('id').where('status', 'in', ['succeeded', 'failed']).where('completed_at', '<', before).orderBy('completed_at').limit(limit).execute()
  ).map((row) => row.id);
  if (ids.length === 0) return 0;
  await db.deleteFrom('delivery_attempts').where('delivery_id', 'in', ids).execute();
  await db.deleteFrom('deliveries').where('id', 'in', ids).where('status', 'in', ['succeeded', 'failed']).execute();
  return ids.length;
}

/** Dispatched events created before `before` that no delivery refers to any more. */
export async function removeDeliveredEvents(db: Db, before: number, limit: number): Promise<number> {
  const ids = (
    await db
      .selectFrom('events')
      .select('id')
      .where('dispatched_at', 'is not', null)
      .where('created_at', '<', before)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('deliveries').select('deliveries.id').whereRef('deliveries.event_id', '=', 'events.id'))))
      .orderBy('id')
      .limit(limit)
      .execute()
  ).map((row) => row.id);
  if (ids.length === 0) return 0;
  await db
    .deleteFrom('events')
    .where('id', 'in', ids)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('deliveries').select('deliveries.id').whereRef('deliveries.event_id', '=', 'events.id'))))
    .execute();
  return ids.length;
}

/** Forms with a retention of their own. */
export async function formsWithRetention(db: Db): Promise<{ id: string; retention_seconds: number }[]> {
  const rows = await db.selectFrom('forms').select(['id', 'retention_seconds']).where('retention_seconds', 'is not', null).execute();
  return rows.flatMap((row) => (row.retention_seconds === null ? [] : [{ id: row.id, retention_seconds: row.retention_seconds }]));
}

/**
 * Submissions created before `before` (spam of every form, or every submission of one
 * form), with their idempotency keys; returns the hashes of the files they had.
 */
export async function removeOldSubmissions(db: Db, scope: { spam: true } | { formId: string }, before: number, limit: number): Promise<{ removed: number; files: string[] }> {
  let query = db.selectFrom('submissions').select(['id', 'files']).where('created_at', '<', before);
  query = 'spam' in scope ? query.where('state', '=', 'spam') : query.where('form_id', '=', scope.formId);
  const rows = await query.orderBy('id').limit(limit).execute();
  if (rows.length === 0) return { removed: 0, files: [] };
  const ids = rows.map((row) => row.id);
  await db.deleteFrom('idempotency_keys').where('submission_id', 'in', ids).execute();
  await db.deleteFrom('submissions').where('id', 'in', ids).execute();
  return { removed: rows.length, files: rows.flatMap((row) => (JSON.parse(row.files) as SubmissionFile[]).map((file) => file.sha256)) };
}

/** Spam Pinpoints requests created before `before`, with their replies; returns the hashes of their screenshots. */
export async function removeOldSpamRequests(db: Db, before: number, limit: number): Promise<{ removed: number; files: string[] }> {
  const rows = await db.selectFrom('requests').select(['id', 'screenshot_sha256']).where('status', '=', 'spam').where('created_at', '<', before).orderBy('id').limit(limit).execute();
  if (rows.length === 0) return { removed: 0, files: [] };
  await db.deleteFrom('requests').where('id', 'in', rows.map((row) => row.id)).execute();
  return { removed: rows.length, files: rows.flatMap((row) => (row.screenshot_sha256 === null ? [] : [row.screenshot_sha256])) };
}

/** Projects that keep their Pinpoints requests for a limited time. */
export async function projectsWithRequestRetention(db: Db): Promise<{ id: string; request_retention_seconds: number }[]> {
  const rows = await db.selectFrom('projects').select(['id', 'request_retention_seconds']).where('request_retention_seconds', 'is not', null).execute();
  return rows.flatMap((row) => (row.request_retention_seconds === null ? [] : [{ id: row.id, request_retention_seconds: row.request_retention_seconds }]));
}

/** A project's requests (every status) created before `before`, with their replies; returns the hashes of their screenshots. */
export async function removeOldRequests(db: Db, projectId: string, before: number, limit: number): Promise<{ removed: number; files: string[] }> {
  const rows = await db.selectFrom('requests').select(['id', 'screenshot_sha256']).where('project_id', '=', projectId).where('created_at', '<', before).orderBy('id').limit(limit).execute();
  if (rows.length === 0) return { removed: 0, files: [] };
  const ids = rows.map((row) => row.id);
  await db.deleteFrom('request_replies').where('request_id', 'in', ids).execute();
  await db.deleteFrom('requests').where('id', 'in', ids).execute();
  return { removed: rows.length, files: rows.flatMap((row) => (row.screenshot_sha256 === null ? [] : [row.screenshot_sha256])) };
}
