import { sql } from 'kysely';
import type { Db } from '../store.js';
import { webhookEnabled } from './claim-deliveries.js';

/**
 * The earliest time a pending delivery of an enabled webhook can be claimed: its next
 * attempt, or the end of its lease while some worker holds it. Null when none is pending.
 */
export async function nextDeliveryDue(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('deliveries')
    .select(sql<number | string | null>`min(case when lease_expires_at > next_attempt_at then lease_expires_at else next_attempt_at end)`.as('due'))
    .where('status', '=', 'pending')
    .where(webhookEnabled)
    .executeTakeFirst();
  return row?.due === null || row?.due === undefined ? null : Number(row.due);
}
