import type { Db } from '../store.js';

/** The submission an idempotency key made for a form since `since`, or null. */
export async function findIdempotentSubmission(db: Db, formId: string, key: string, since: number): Promise<string | null> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select('submission_id')
    .where('form_id', '=', formId)
    .where('key', '=', key)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return row?.submission_id ?? null;
}

/** Forgets keys used before `before` (past the idempotency window). */
export async function deleteExpiredIdempotencyKeys(db: Db, before: number): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', before).execute();
}
