import type { DeliveryAttemptRow } from '../schema.js';
import type { Db } from '../store.js';

/** Every attempt of these deliveries, oldest first per delivery. */
export async function listAttemptsOf(db: Db, deliveryIds: readonly string[]): Promise<DeliveryAttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db.selectFrom('delivery_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('delivery_id').orderBy('attempt').execute();
}

/** The payloads of these events: the body every delivery of an event sends. */
export async function eventPayloads(db: Db, eventIds: readonly string[]): Promise<Map<string, string>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db.selectFrom('events').select(['id', 'payload']).where('id', 'in', eventIds).execute();
  return new Map(rows.map((row) => [row.id, row.payload]));
}
