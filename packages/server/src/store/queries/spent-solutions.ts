import type { Db } from '../store.js';

/**
 * Marks an ALTCHA solution spent; false when it was spent already. Decided by the primary
 * key, so two instances (or two requests) spending one solution at once store one row.
 */
export async function spendSolution(db: Db, digest: string, expiresAt: number): Promise<boolean> {
  const result = await db
    .insertInto('spent_captcha_solutions')
    .values({ digest, expires_at: expiresAt })
    .onConflict((conflict) => conflict.column('digest').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Rows whose challenge has expired: such a challenge is refused before its row is consulted. */
export async function deleteExpiredSolutions(db: Db, now: number): Promise<void> {
  await db.deleteFrom('spent_captcha_solutions').where('expires_at', '<=', now).execute();
}
