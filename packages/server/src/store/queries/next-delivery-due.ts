import type { Db } from '../store.js';

/**
 * When a pending delivery next becomes claimable after `now`: its next attempt (a retry), or
 * the end of a worker's lease. Each is the first entry of a partial index after `now`
 * (`deliveries_due`, `deliveries_lease_expiry`): no walk of what is due already, which
 * claims and the backlog take care of. Null when nothing is scheduled.
 */
export async function nextDeliveryDue(db: Db, now: number): Promise<number | null> {
  const retry = await db
    .selectFrom('deliveries')
    .select('next_attempt_at as at')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '>', now)
    .orderBy('next_attempt_at')
    .limit(1)
    .executeTakeFirst();
  const lease = await db
    .selectFrom('deliveries')
    .select('lease_expires_at as at')
    .where('status', '=', 'pending')
    .where('lease_expires_at', 'is not', null)
    .where('lease_expires_at', '>', now)
    .orderBy('lease_expires_at')
    .limit(1)
    .executeTakeFirst();
  const times = [retry?.at, lease?.at].filter((at): at is number => at !== undefined && at !== null).map(Number);
  return times.length === 0 ? null : Math.min(...times);
}
