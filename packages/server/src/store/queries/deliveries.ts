import { sql } from 'kysely';
import type { DeliveryAttemptRow, DeliveryRow, DeliveryStatus } from '../schema.js';
import type { Db } from '../store.js';

/** A delivery with its event's type and project. */
export interface DeliveryRecord extends DeliveryRow {
  event_type: string;
  project_id: string;
}

function deliveriesWithEvents(db: Db) {
  return db
    .selectFrom('deliveries')
    .innerJoin('events', 'events.id', 'deliveries.event_id')
    .selectAll('deliveries')
    .select(['events.type as event_type', 'events.project_id as project_id']);
}

export interface DeliveryListQuery {
  readonly projectId: string;
  readonly webhookId?: string | undefined;
  readonly status?: DeliveryStatus | undefined;
  /** Only deliveries of this event type (exact). */
  readonly eventType?: string | undefined;
  /** Only deliveries older than this id (the cursor of the previous page). */
  readonly before?: string | undefined;
  readonly limit: number;
}

/**
 * Newest first; delivery ids are time-ordered. One webhook's deliveries are read in order from
 * the (webhook_id, id) index; a whole project's by walking ids downwards, so a page stops
 * after `limit` rows instead of sorting the project's whole history.
 */
export async function listDeliveries(db: Db, query: DeliveryListQuery): Promise<DeliveryRecord[]> {
  let select = deliveriesWithEvents(db).orderBy('deliveries.id', 'desc').limit(query.limit);
  if (query.webhookId !== undefined) {
    select = select.where('deliveries.webhook_id', '=', query.webhookId);
  } else {
    select = select.where((eb) =>
      eb.exists(
        eb
          .selectFrom('webhooks')
          .select(sql<number>`1`.as('one'))
          .whereRef('webhooks.id', '=', 'deliveries.webhook_id')
          .where('webhooks.project_id', '=', query.projectId),
      ),
    );
  }
  if (query.status !== undefined) select = select.where('deliveries.status', '=', query.status);
  if (query.eventType !== undefined) select = select.where('events.type', '=', query.eventType);
  if (query.before !== undefined) select = select.where('deliveries.id', '<', query.before);
  return select.execute();
}

export async function findDelivery(db: Db, id: string): Promise<DeliveryRecord | undefined> {
  return deliveriesWithEvents(db).where('deliveries.id', '=', id).executeTakeFirst();
}

export async function listAttempts(db: Db, deliveryId: string): Promise<DeliveryAttemptRow[]> {
  return db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
}

export async function findAttempt(db: Db, deliveryId: string, attempt: number): Promise<DeliveryAttemptRow | undefined> {
  return db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', deliveryId).where('attempt', '=', attempt).executeTakeFirst();
}

/**
 * Queues a finished delivery again, due now, with a fresh retry budget (`retry_base` moves
 * up to the attempts made so far). False when it is not finished (pending already).
 */
export async function requeueDelivery(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('deliveries')
    .set((eb) => ({
      status: 'pending',
      retry_base: eb.ref('attempts'),
      next_attempt_at: now,
      lease_owner: null,
      lease_expires_at: null,
      completed_at: null,
      updated_at: now,
    }))
    .where('id', '=', id)
    .where('status', 'in', ['failed', 'succeeded'])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Finished deliveries of a webhook created in [since, until), oldest first, at most `limit`
 * after `afterId`: the candidates of a replay.
 */
export async function finishedDeliveriesOfWebhook(
  db: Db,
  query: { webhookId: string; since: number; until: number; statuses: readonly ('failed' | 'succeeded')[]; afterId: string | null; limit: number },
): Promise<string[]> {
  let select = db
    .selectFrom('deliveries')
    .select('id')
    .where('webhook_id', '=', query.webhookId)
    .where('created_at', '>=', query.since)
    .where('created_at', '<', query.until)
    .where('status', 'in', [...query.statuses]);
  if (query.afterId !== null) select = select.where('id', '>', query.afterId);
  return (await select.orderBy('id').limit(query.limit).execute()).map((row) => row.id);
}
