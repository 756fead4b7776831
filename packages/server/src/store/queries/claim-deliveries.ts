import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { BackendCapabilities } from '../capabilities.js';
import type { Database } from '../schema.js';
import type { Db } from '../store.js';

/**
 * "The delivery's webhook is enabled (and not of a project in `excludeProjects`)", as a
 * correlated EXISTS: it leaves the partial index of pending deliveries as the only way in,
 * where `webhook_id IN (…)` can lead the planner to walk every delivery ever made to the
 * webhook.
 */
export function webhookEnabled(excludeProjects: readonly string[] = []) {
  return (eb: ExpressionBuilder<Database, 'deliveries'>): Expression<SqlBool> => {
    let webhook = eb
      .selectFrom('webhooks')
      .select(sql<number>`1`.as('one'))
      .whereRef('webhooks.id', '=', 'deliveries.webhook_id')
      .where('webhooks.enabled', '=', 1);
    if (excludeProjects.length > 0) webhook = webhook.where('webhooks.project_id', 'not in', [...excludeProjects]);
    return eb.exists(webhook);
  };
}

export interface ClaimOptions {
  readonly now: number;
  readonly limit: number;
  readonly owner: string;
  readonly expiresAt: number;
  /** Webhooks whose deliveries are not claimed now (they have as many in flight as they may). */
  readonly excludeWebhooks?: readonly string[];
  /** Projects whose deliveries are not claimed now, for the same reason. */
  readonly excludeProjects?: readonly string[];
  /** Only this webhook's deliveries (it has room again): found through its own index of due deliveries. */
  readonly webhookId?: string;
}

/**
 * Leases up to `limit` due deliveries of enabled webhooks to `owner`, in the caller's
 * transaction: pending, due, and not leased (or leased by a worker whose lease ran out).
 * On PostgreSQL rows other workers are claiming are skipped (SKIP LOCKED) instead of
 * waited for; on SQLite the write transaction already excludes other claimers.
 */
export async function claimDueDeliveries(trx: Db, capabilities: BackendCapabilities, options: ClaimOptions): Promise<string[]> {
  if (options.limit <= 0) return [];
  let query = trx
    .selectFrom('deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', options.now)
    .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', options.now)]))
    .where(webhookEnabled(options.excludeProjects))
    .orderBy('next_attempt_at')
    .limit(options.limit);
  if (options.excludeWebhooks && options.excludeWebhooks.length > 0) query = query.where('webhook_id', 'not in', [...options.excludeWebhooks]);
  if (options.webhookId !== undefined) query = query.where('webhook_id', '=', options.webhookId);
  if (capabilities.skipLocked) query = query.forUpdate().skipLocked();
  const ids = (await query.execute()).map((row) => row.id);
  if (ids.length > 0) {
    await trx
      .updateTable('deliveries')
      .set({ lease_owner: options.owner, lease_expires_at: options.expiresAt, updated_at: options.now })
      .where('id', 'in', ids)
      .execute();
  }
  return ids;
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
