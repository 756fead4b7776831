import type { Db } from '../store.js';

export interface LastAttemptSummary {
  readonly deliveryId: string;
  readonly status: 'pending' | 'succeeded' | 'failed';
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly at: number;
}

/** The newest delivery of a webhook that has been attempted at least once (by the `deliveries_webhook` index). */
export async function lastAttemptedDelivery(db: Db, webhookId: string): Promise<LastAttemptSummary | undefined> {
  const row = await db
    .selectFrom('deliveries')
    .select(['id', 'status', 'last_status_code', 'last_error', 'updated_at'])
    .where('webhook_id', '=', webhookId)
    .where('attempts', '>', 0)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return { deliveryId: row.id, status: row.status, statusCode: row.last_status_code, error: row.last_error, at: Number(row.updated_at) };
}
