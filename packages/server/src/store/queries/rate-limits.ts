import type { Db } from '../store.js';

export interface RateLimitSnapshot {
  key: string;
  points: number;
  expires_at: number;
}

/** Drops snapshots whose window has ended. */
export async function deleteExpiredRateLimits(db: Db, now: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('expires_at', '<=', now).execute();
}

export async function loadRateLimits(db: Db): Promise<RateLimitSnapshot[]> {
  return db.selectFrom('rate_limits').selectAll().execute();
}

const rowsPerStatement = 500;

/** Writes snapshots, replacing those of the same keys. */
export async function saveRateLimits(db: Db, rows: readonly RateLimitSnapshot[]): Promise<void> {
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    await db
      .insertInto('rate_limits')
      .values(rows.slice(start, start + rowsPerStatement))
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet((update) => ({
          points: update.ref('excluded.points'),
          expires_at: update.ref('excluded.expires_at'),
        })),
      )
      .execute();
  }
}
