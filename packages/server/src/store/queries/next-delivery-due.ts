import type { Db } from '../store.js';
import { runningLeases } from './claim-deliveries.js';

/**
 * When a worker's lease next runs out after `now` (its delivery is then claimable again): the
 * first entry of `deliveries_lease_expiry` after `now`. Null when no lease runs.
 */
export async function nextLeaseEnd(db: Db, now: number): Promise<number | null> {
  const lease = await runningLeases(db).select('lease_expires_at as at').where('lease_expires_at', '>', now).limit(1).executeTakeFirst();
  return lease?.at === undefined || lease.at === null ? null : Number(lease.at);
}
