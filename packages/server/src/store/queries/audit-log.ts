import { newId } from '../../lib/ids.js';
import type { AuditLogRow } from '../schema.js';
import type { Db } from '../store.js';

/** What an operation records about its change; the actor is resolved by the caller. */
export interface NewAuditEntry {
  readonly at: number;
  readonly workspaceId: string | null;
  readonly projectId: string | null;
  readonly actor: { readonly type: string; readonly id: string; readonly name: string };
  readonly action: string;
  readonly object: { readonly type: string; readonly id: string; readonly name?: string | undefined } | null;
  readonly change: { readonly from: string | null; readonly to: string | null } | null;
  readonly ip: string | null;
}

/** Writes one entry with `db`, which is the transaction of the change it records. */
export async function insertAuditEntry(db: Db, entry: NewAuditEntry): Promise<string> {
  const id = newId('aud', entry.at);
  await db
    .insertInto('audit_log')
    .values({
      id,
      at: entry.at,
      workspace_id: entry.workspaceId,
      project_id: entry.projectId,
      actor_type: entry.actor.type,
      actor_id: entry.actor.id,
      actor_name: entry.actor.name,
      action: entry.action,
      object_type: entry.object?.type ?? null,
      object_id: entry.object?.id ?? null,
      object_name: entry.object?.name ?? null,
      change_from: entry.change?.from ?? null,
      change_to: entry.change?.to ?? null,
      ip: entry.ip,
    })
    .execute();
  return id;
}

export interface AuditLogQuery {
  /** Only this workspace's entries; undefined: every workspace's and those outside any (admins). */
  readonly workspaceId?: string | undefined;
  readonly projectId?: string | undefined;
  readonly action?: string | undefined;
  /** Only entries at or after this time. */
  readonly since?: number | undefined;
  /** Only entries older than this id (the cursor). */
  readonly before?: string | undefined;
  readonly limit: number;
}

export interface AuditLogRecord extends AuditLogRow {
  readonly workspace_slug: string | null;
  readonly project_name: string | null;
}

/** Entries newest first, with their workspace's slug and project's name. */
export async function listAuditEntries(db: Db, query: AuditLogQuery): Promise<AuditLogRecord[]> {
  let select = db
    .selectFrom('audit_log')
    .leftJoin('workspaces', 'workspaces.id', 'audit_log.workspace_id')
    .leftJoin('projects', 'projects.id', 'audit_log.project_id')
    .selectAll('audit_log')
    .select(['workspaces.slug as workspace_slug', 'projects.name as project_name'])
    .orderBy('audit_log.id', 'desc')
    .limit(query.limit);
  if (query.workspaceId !== undefined) select = select.where('audit_log.workspace_id', '=', query.workspaceId);
  if (query.projectId !== undefined) select = select.where('audit_log.project_id', '=', query.projectId);
  if (query.action !== undefined) select = select.where('audit_log.action', '=', query.action);
  if (query.since !== undefined) select = select.where('audit_log.at', '>=', query.since);
  if (query.before !== undefined) select = select.where('audit_log.id', '<', query.before);
  return select.execute();
}

/** Retention: removes at most `limit` entries older than `before`, oldest first; how many. */
export async function removeOldAuditEntries(db: Db, before: number, limit: number): Promise<number> {
  const ids = (await db.selectFrom('audit_log').select('id').where('at', '<', before).orderBy('at').limit(limit).execute()).map((row) => row.id);
  if (ids.length === 0) return 0;
  await db.deleteFrom('audit_log').where('id', 'in', ids).execute();
  return ids.length;
}
