import type { InboundDeliveryRow } from '../schema.js';
import type { Db } from '../store.js';

/** How many rows of each class a project keeps (docs/hosting.md, "When a push did not deploy"). */
export interface InboundBounds {
  /** Accepted and ignored deliveries: signed by the secret's holder. */
  readonly kept: number;
  /** Refused deliveries: anyone who knows the push URL can send them, so they are counted apart. */
  readonly refused: number;
}

/**
 * Records a delivery and, in the same transaction, drops the project's oldest of its class
 * past the bound: a table nobody can grow without limit, and refused calls never push the
 * accepted and ignored ones out.
 */
export async function recordInboundDelivery(trx: Db, row: InboundDeliveryRow, bounds: InboundBounds): Promise<void> {
  await trx.insertInto('inbound_deliveries').values(row).execute();
  const refused = row.verdict === 'refused';
  const keep = refused ? bounds.refused : bounds.kept;
  const oldestKept = await trx
    .selectFrom('inbound_deliveries')
    .select('id')
    .where('project_id', '=', row.project_id)
    .where('verdict', refused ? '=' : '<>', 'refused')
    .orderBy('id', 'desc')
    .offset(keep - 1)
    .limit(1)
    .executeTakeFirst();
  if (oldestKept === undefined) return;
  await trx
    .deleteFrom('inbound_deliveries')
    .where('project_id', '=', row.project_id)
    .where('verdict', refused ? '=' : '<>', 'refused')
    .where('id', '<', oldestKept.id)
    .execute();
}

/** A project's deliveries newest first; with `environment`, those of it and those of no environment. */
export async function listInboundDeliveries(db: Db, projectId: string, filter: { environment?: string | undefined; verdicts: readonly InboundDeliveryRow['verdict'][]; limit: number }): Promise<InboundDeliveryRow[]> {
  if (filter.verdicts.length === 0) return [];
  let query = db.selectFrom('inbound_deliveries').selectAll().where('project_id', '=', projectId).where('verdict', 'in', filter.verdicts);
  const { environment } = filter;
  if (environment !== undefined) query = query.where((eb) => eb.or([eb('environment', '=', environment), eb('environment', 'is', null)]));
  return query.orderBy('id', 'desc').limit(filter.limit).execute();
}
