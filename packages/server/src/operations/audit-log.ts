import { auditPageSize, isAuditAction, ServiceError, type AuditAction, type AuditActorType } from '@svc/protocol';
import type { AuditEntry } from '@svc/protocol/api';
import { insertAuditEntry, listAuditEntries, type AuditLogRecord } from '../store/queries/audit-log.js';
import { findProject, findWorkspacesBySlugs } from '../store/queries/projects.js';
import type { Db } from '../store/store.js';
import { isAdmin, isPerson, membershipIn, type OperationContext, type Principal } from './context.js';
import { actingName, canManagePeople } from './rights.js';
import { isoTime } from '../lib/iso-time.js';
import { auditCursor } from './listing-cursor.js';
import { workspaceInScope } from './scope.js';

/** Who acted, as an entry names them: the name is the one they had when they acted. */
export interface AuditActor {
  readonly type: AuditActorType;
  readonly id: string;
  readonly name: string;
}

/**
 * What changed: the action, where, and the object it changed (by id, never its contents;
 * `name` only where it names the object to people: a member's email, a token's name), and
 * for a change of one value (a role, a name) what it went from and to.
 */
export interface AuditChange {
  readonly action: AuditAction;
  readonly workspaceId: string | null;
  readonly projectId?: string | null | undefined;
  readonly object?: { readonly type: string; readonly id: string; readonly name?: string | undefined } | null | undefined;
  readonly change?: { readonly from: string | null; readonly to: string | null } | undefined;
}

/**
 * The one place a principal becomes an audit actor. A token is named by its `--name`; a
 * person is the `member` of the workspace where they acted (their member id there), named
 * by their name there. Both are the names a reply or a deploy of theirs shows.
 */
export async function auditActor(db: Db, principal: Principal, workspaceId: string | null): Promise<AuditActor> {
  const name = await actingName(db, principal, workspaceId);
  if (isPerson(principal)) {
    const membership = workspaceId === null ? undefined : membershipIn(principal, workspaceId);
    return { type: 'member', id: membership?.memberId ?? principal.personId, name };
  }
  return { type: 'token', id: principal.tokenId, name };
}

/** The service itself, acting on an inbound webhook (a git push, a deploy hook): `name` says which. */
export function systemActor(id: string, name: string): AuditActor {
  return { type: 'system', id, name };
}

/**
 * Records one change in the audit log. `trx` must be the transaction that makes the change,
 * so the entry exists exactly when the change does (docs/privacy.md, "The audit log").
 */
export async function recordAudit(trx: Db, context: Pick<OperationContext, 'now'>, principal: Principal, change: AuditChange): Promise<void> {
  await recordAuditAs(trx, context, await auditActor(trx, principal, change.workspaceId), principal.ip ?? null, change);
}

/** The same with an actor that is not a principal (the system). */
export async function recordAuditAs(trx: Db, context: Pick<OperationContext, 'now'>, actor: AuditActor, ip: string | null, change: AuditChange): Promise<void> {
  await insertAuditEntry(trx, {
    at: context.now(),
    workspaceId: change.workspaceId,
    projectId: change.projectId ?? null,
    actor,
    action: change.action,
    object: change.object ?? null,
    change: change.change ?? null,
    ip,
  });
}

/**
 * Who may read a workspace's audit log: admin tokens, the workspace's tokens and its owners
 * (docs/privacy.md). Others get `forbidden`; a workspace they cannot see is `not_found` before this.
 */
export function requireAuditReader(principal: Principal, workspaceId: string): void {
  if (!mayReadAuditLog(principal, workspaceId)) throw new ServiceError('forbidden', 'only admin tokens, the workspace\'s tokens and its owners can read the audit log');
}

/** Whether the principal may read the workspace's audit log: a token that sees it, or an owner. */
export function mayReadAuditLog(principal: Principal, workspaceId: string): boolean {
  // The same people who manage the workspace's members and tokens.
  return canManagePeople(principal, workspaceId);
}

/** Of these workspace slugs, those whose audit log the principal may read (the projects page links them). */
export async function readableAuditLogs(context: OperationContext, principal: Principal, slugs: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(slugs)];
  const idOf = new Map((await findWorkspacesBySlugs(context.store.db, wanted)).map((workspace) => [workspace.slug, workspace.id]));
  return wanted.filter((slug) => {
    const id = idOf.get(slug);
    return id !== undefined && mayReadAuditLog(principal, id);
  });
}

export interface ListAuditLogInput {
  /** Only this workspace; without it, a workspace token's own workspace, or for an admin every entry. */
  readonly workspace?: string | undefined;
  /** Only this project of the workspace. */
  readonly project?: string | undefined;
  readonly action?: string | undefined;
  /** ISO 8601: only entries at or after it. */
  readonly since?: string | undefined;
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
}

export interface AuditLogPage {
  readonly entries: AuditEntry[];
  /** Opaque; null on the last page. */
  readonly nextCursor: string | null;
}

function invalid(field: string, message: string): ServiceError {
  return new ServiceError('validation_failed', `${field} ${message}`, { errors: { [field]: message } });
}

function parseSince(text: string): number {
  const value = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(value)) throw invalid('since', 'must be an ISO 8601 time, e.g. 2026-11-24T09:00:00Z');
  return value;
}

export function toAuditEntry(row: AuditLogRecord): AuditEntry {
  return {
    id: row.id,
    at: isoTime(row.at),
    actor: { type: row.actor_type as AuditActorType, id: row.actor_id, name: row.actor_name },
    action: row.action,
    workspace: row.workspace_slug,
    project: row.project_name,
    object: row.object_type !== null && row.object_id !== null ? { type: row.object_type, id: row.object_id, ...(row.object_name === null ? {} : { name: row.object_name }) } : null,
    ...(row.change_from === null && row.change_to === null ? {} : { change: { from: row.change_from, to: row.change_to } }),
    ip: row.ip,
  };
}

/** `svc audit-log` and the audit page: entries newest first, filtered, a page at a time. */
export async function listAuditLog(context: OperationContext, principal: Principal, input: ListAuditLogInput): Promise<AuditLogPage> {
  const db = context.store.db;
  if (input.action !== undefined && !isAuditAction(input.action)) throw invalid('action', 'is not an action of the audit log (docs/privacy.md lists them)');
  const since = input.since === undefined ? undefined : parseSince(input.since);
  const limit = Math.min(Math.max(Math.trunc(input.limit ?? auditPageSize.default), 1), auditPageSize.max);
  const before = input.cursor === undefined ? undefined : auditCursor.decode(input.cursor);

  let workspaceId: string | undefined;
  if (input.workspace !== undefined) workspaceId = (await workspaceInScope(db, principal, input.workspace)).id;
  else if (isPerson(principal)) throw invalid('workspace', 'is required: name the workspace whose log to read');
  else if (!isAdmin(principal)) workspaceId = principal.workspaceId ?? undefined;
  if (workspaceId !== undefined) requireAuditReader(principal, workspaceId);

  let projectId: string | undefined;
  if (input.project !== undefined) {
    if (workspaceId === undefined) throw invalid('project', 'needs a workspace: name it with workspace (--workspace)');
    const project = await findProject(db, workspaceId, input.project);
    if (!project) throw new ServiceError('not_found', `no project "${input.project}" in ${input.workspace === undefined ? 'this workspace' : `workspace "${input.workspace}"`}`);
    projectId = project.id;
  }

  const rows = await listAuditEntries(db, { workspaceId, projectId, action: input.action, since, before, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { entries: page.map(toAuditEntry), nextCursor: rows.length > limit && last ? auditCursor.encode(last.id) : null };
}
