import { sql } from 'kysely';
import type { Db } from '../store.js';
import { webhookEnabled } from './claim-deliveries.js';

/**
 * The earliest time a pending delivery of an enabled webhook can be claimed: its next
 * attempt, or the end of its lease while some worker holds it. Null when none is pending.
 * Webhooks in `excludeWebhooks` and projects in `excludeProjects` (at their limit here)
 * wake the worker when a slot frees.
 */
export async function nextDeliveryDue(db: Db, excludeWebhooks: readonly string[] = [], excludeProjects: readonly string[] = []): Promise<number | null> {
  let query = pendingDue(db).where(webhookEnabled(excludeProjects));
  if (excludeWebhooks.length > 0) query = query.where('webhook_id', 'not in', [...excludeWebhooks]);
  return dueOf(await query.executeTakeFirst());
}

/** When the next pending delivery of one webhook comes due (through its own index); null when it has none. */
export async function nextWebhookDeliveryDue(db: Db, webhookId: string): Promise<number | null> {
  return dueOf(await pendingDue(db).where('webhook_id', '=', webhookId).executeTakeFirst());
}

/** The earliest claimable time of the pending deliveries the caller narrows down. */
function pendingDue(db: Db) {
  return db
    .selectFrom('deliveries')
    .select(sql<number | string | null>`min(case when lease_expires_at > next_attempt_at then lease_expires_at else next_attempt_at end)`.as('due'))
    .where('status', '=', 'pending');
}

function dueOf(row: { due: number | string | null } | undefined): number | null {
  return row?.due === null || row?.due === undefined ? null : Number(row.due);
}
