import type { Db } from '../store.js';

/** Stores `sealed` as the canary unless one exists; returns the stored canary. */
export async function ensureEncryptionCanary(db: Db, sealed: string, now: number): Promise<string> {
  await db
    .insertInto('encryption_canary')
    .values({ id: 1, value: sealed, created_at: now })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  const row = await db.selectFrom('encryption_canary').select('value').where('id', '=', 1).executeTakeFirstOrThrow();
  return row.value;
}

/** The stored canary, or null when none was written yet (a store never started). */
export async function readEncryptionCanary(db: Db): Promise<string | null> {
  const row = await db.selectFrom('encryption_canary').select('value').where('id', '=', 1).executeTakeFirst();
  return row?.value ?? null;
}
