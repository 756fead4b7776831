// @ts-check
// The outbox (docs/architecture.md, "Events and delivery"): an event is written in the same
// transaction as what caused it. Its row is built here, and only here, for every writer:
// `insertEvent` below, and the form endpoint's batch commits (store/postgres/submission-batch.ts,
// store/sqlite/commit-submissions.js), which insert the rows `outboxRow` built. JavaScript so
// that the SQLite writer thread loads it from src/ (tests) and dist/ alike.

/**
 * An event as the core makes it: `payload` is the exact body every delivery sends.
 * @typedef {{ id: string, projectId: string, type: string, payload: string, now: number }} OutboxEvent
 * @typedef {import('../schema.js').EventRow} OutboxRow
 */

/** The outbox table's columns: every insert names them all. */
export const outboxColumns = /** @type {const} */ (['id', 'project_id', 'type', 'payload', 'created_at', 'dispatched_at', 'test']);

/**
 * The outbox row of an event. Undispatched unless `dispatchedAt` is given: the dispatcher
 * fans it out to the project's webhooks. Not a test unless `test` (`svc webhooks test`).
 * @param {OutboxEvent} event
 * @param {number | null} [dispatchedAt]
 * @param {boolean} [test]
 * @returns {OutboxRow}
 */
export function outboxRow(event, dispatchedAt = null, test = false) {
  return { id: event.id, project_id: event.projectId, type: event.type, payload: event.payload, created_at: event.now, dispatched_at: dispatchedAt, test: test ? 1 : 0 };
}

/**
 * Writes an event to the outbox, in the caller's transaction.
 * @param {import('../store.js').Db} db
 * @param {OutboxEvent} event
 * @param {{ dispatchedAt?: number, test?: boolean }} [options] stored as already dispatched at that time (an event for one webhook only, `svc webhooks test`), and marked a test
 * @returns {Promise<void>}
 */
export async function insertEvent(db, event, options = {}) {
  await db.insertInto('events').values(outboxRow(event, options.dispatchedAt ?? null, options.test)).execute();
}
