import type { Db } from '../store.js';

/**
 * Claims a push delivery's id for its connection (docs/hosting.md, "Replayed pushes"): true
 * when it was not taken since `since`, false when it was (a replay). Decided by the primary
 * key, so two copies arriving at once are one claim and one replay.
 */
export async function claimPushDelivery(db: Db, connectionId: string, deliveryId: string, now: number, since: number): Promise<boolean> {
  const claimed = await db
    .insertInto('push_delivery_ids')
    .values({ connection_id: connectionId, delivery_id: deliveryId, received_at: now })
    .onConflict((conflict) => conflict.columns(['connection_id', 'delivery_id']).doUpdateSet({ received_at: now }).where('push_delivery_ids.received_at', '<', since))
    .returning('delivery_id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Gives a claim back: the delivery it named built nothing after all (its build could not be queued). */
export async function releasePushDelivery(db: Db, connectionId: string, deliveryId: string): Promise<void> {
  await db.deleteFrom('push_delivery_ids').where('connection_id', '=', connectionId).where('delivery_id', '=', deliveryId).execute();
}

/** Forgets delivery ids taken before `before`. */
export async function deleteExpiredPushDeliveries(db: Db, before: number): Promise<void> {
  await db.deleteFrom('push_delivery_ids').where('received_at', '<', before).execute();
}
