import type { Db } from '../store.js';

/**
 * When a worker's lease next runs out after `now` (its delivery is then claimable again): the
 * first entry of `deliveries_lease_expiry` after `now`. Null when no lease runs.
 */
export async function nextLeaseEnd(db: Db, now: number): Promise<number | null> {
  const lease = await db
    .selectFrom('deliveries')
    .select('lease_expires_at as at')
    .where('status', '=', 'pending')
    .where('lease_expires_at', 'is not', null)
    .where('lease_expires_at', '>', now)
    .orderBy('lease_expires_at')
    .limit(1)
    .executeTakeFirst();
  return lease?.at === undefined || lease.at === null ? null : Number(lease.at);
}
