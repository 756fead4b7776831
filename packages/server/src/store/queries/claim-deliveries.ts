import type { BackendCapabilities } from '../capabilities.js';
import type { Db } from '../store.js';
import { sendableWebhookColumns, toDeliveryJobs, type DeliveryJob } from './delivery-jobs.js';

/** A lease: the worker that holds a delivery, and until when. */
export interface Lease {
  readonly owner: string;
  readonly expiresAt: number;
}

export interface WebhookClaim {
  readonly webhookId: string;
  /** Most deliveries to lease. */
  readonly limit: number;
  readonly now: number;
  readonly lease: Lease;
}

/**
 * Leases up to `limit` of one webhook's due deliveries that no worker holds, oldest due
 * first, in the caller's transaction, and returns them ready to send (nothing when the
 * webhook is disabled). They are found through `deliveries_webhook_ready` (pending and
 * unleased, by webhook and due time), so the claim walks exactly the rows it takes. On
 * PostgreSQL rows another worker is claiming are skipped (SKIP LOCKED) instead of waited
 * for; on SQLite the write transaction already excludes other claimers.
 */
export async function claimWebhookDeliveries(trx: Db, capabilities: BackendCapabilities, claim: WebhookClaim): Promise<DeliveryJob[]> {
  if (claim.limit <= 0) return [];
  const webhook = await trx.selectFrom('webhooks').select(sendableWebhookColumns).where('id', '=', claim.webhookId).where('enabled', '=', 1).executeTakeFirst();
  if (!webhook) return [];
  let ready = trx
    .selectFrom('deliveries')
    .select('id')
    .where('webhook_id', '=', claim.webhookId)
    .where('status', '=', 'pending')
    .where('lease_expires_at', 'is', null)
    .where('next_attempt_at', '<=', claim.now)
    .orderBy('next_attempt_at')
    .limit(claim.limit);
  if (capabilities.skipLocked) ready = ready.forUpdate().skipLocked();
  const leased = await trx
    .updateTable('deliveries')
    .set({ lease_owner: claim.lease.owner, lease_expires_at: claim.lease.expiresAt, updated_at: claim.now })
    .where('id', 'in', ready)
    .returning(['id', 'webhook_id', 'event_id', 'attempts', 'retry_base', 'lease_owner', 'lease_expires_at', 'next_attempt_at'])
    .execute();
  // Sent in due order (RETURNING keeps none).
  leased.sort((a, b) => a.next_attempt_at - b.next_attempt_at || (a.id < b.id ? -1 : 1));
  return toDeliveryJobs(trx, leased, new Map([[webhook.id, webhook]]));
}

/** An enabled webhook with pending deliveries that no worker holds, and the due time of its first. */
export interface ReadyWebhook {
  readonly webhookId: string;
  readonly projectId: string;
  /** Now or past: it has work to claim; later: its next retry. */
  readonly firstDueAt: number;
}

/**
 * Every enabled webhook with pending deliveries that no worker holds, with the due time of
 * its first: one look into `deliveries_webhook_ready` per enabled webhook (a scalar
 * subquery, which PostgreSQL runs per webhook rather than as a walk of every ready
 * delivery), never a walk of their deliveries.
 */
export async function readyWebhooks(db: Db): Promise<ReadyWebhook[]> {
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('webhooks')
        .select((inner) => [
          'webhooks.id as webhook_id',
          'webhooks.project_id',
          inner
            .selectFrom('deliveries')
            .select('deliveries.next_attempt_at')
            .whereRef('deliveries.webhook_id', '=', 'webhooks.id')
            .where('deliveries.status', '=', 'pending')
            .where('deliveries.lease_expires_at', 'is', null)
            .orderBy('deliveries.next_attempt_at')
            .limit(1)
            .as('first_due_at'),
        ])
        .where('webhooks.enabled', '=', 1)
        .as('ready'),
    )
    .selectAll()
    .where('first_due_at', 'is not', null)
    .execute();
  return rows.map((row) => ({ webhookId: row.webhook_id, projectId: row.project_id, firstDueAt: Number(row.first_due_at) }));
}

const lapsedPerStatement = 500;

/**
 * Makes deliveries whose lease ran out (their worker died or gave up on them) ready again,
 * through `deliveries_lease_expiry`: it walks the lapsed leases only. Their worker's late
 * record, if any, is then fenced out like a taken-over lease's. Returns how many.
 */
export async function clearLapsedLeases(trx: Db, capabilities: BackendCapabilities, now: number): Promise<number> {
  let lapsed = runningLeases(trx).select('id').where('lease_expires_at', '<=', now).limit(lapsedPerStatement);
  if (capabilities.skipLocked) lapsed = lapsed.forUpdate().skipLocked();
  const result = await trx.updateTable('deliveries').set({ lease_owner: null, lease_expires_at: null, updated_at: now }).where('id', 'in', lapsed).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Pending deliveries that a worker holds, in the order their leases run out (`deliveries_lease_expiry`). */
export function runningLeases(db: Db) {
  return db.selectFrom('deliveries').where('status', '=', 'pending').where('lease_expires_at', 'is not', null).orderBy('lease_expires_at');
}

/** Gives back leases this owner holds but will not use, so any worker can claim them at once. */
export async function releaseLeases(db: Db, ids: readonly string[], owner: string, now: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('deliveries')
    .set({ lease_owner: null, lease_expires_at: null, updated_at: now })
    .where('id', 'in', ids)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'pending')
    .execute();
}
