import { ServiceError, type ErasedRequestData } from '@svc/protocol';
import type { RequestSettings } from '@svc/protocol/api';
import { deleteRequestRow, findRequest, requestEvents, requestRetention, requestsMentioning, setRequestRetention } from '../store/queries/requests.js';
import { eraseEventCopies } from '../store/queries/submission-changes.js';
import { recordAudit } from './audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { isoTime } from './iso-time.js';
import type { ProjectInput } from './project-config.js';
import { projectInScope } from './scope.js';
import { releaseContents } from '../deploys/stored-contents.js';

/** Bounds of a project's request retention: a minute to ten years, as a form's. */
export const requestRetentionSeconds = { min: 60, max: 315_360_000 } as const;

/**
 * `svc requests delete` (docs/privacy.md): in one transaction the request and its replies
 * go, its `request.*` events keep only a tombstone (`data: { request: { id, createdAt,
 * deletedAt } }`), their pending deliveries fail without another attempt, the answers
 * kept from receivers go and `request.deleted` is audited. No event is sent: the catalog has no `request.deleted`
 * (docs/webhooks.md). Then its screenshot is removed unless something else holds the same
 * contents.
 */
export async function deleteRequest(context: OperationContext, principal: Principal, input: ProjectInput & { id: string }): Promise<{ deleted: { id: string } }> {
  const screenshot = await eraseOne(context, principal, input);
  await releaseContents(context.store, screenshot === null ? [] : [screenshot]);
  await context.store.scrubDeleted();
  return { deleted: { id: input.id } };
}

/**
 * The requests part of `svc submissions erase --email` (docs/privacy.md): every request of
 * the project (open, resolved or spam) whose reporter's email, name or comment contains the
 * address, case aside, deleted as `deleteRequest` does, one transaction each. The caller
 * scrubs once at the end.
 */
export async function eraseRequestsMentioning(context: OperationContext, principal: Principal, input: ProjectInput & { email: string }): Promise<{ id: string }[]> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const needle = input.email.toLowerCase();
  const matching = (await requestsMentioning(context.store.db, project.id, input.email)).filter((row) =>
    [row.email, row.name, row.comment].some((text) => text !== null && text.toLowerCase().includes(needle)),
  );
  const erased: { id: string }[] = [];
  for (const row of matching) {
    try {
      const screenshot = await eraseOne(context, principal, { ...input, id: row.id });
      await releaseContents(context.store, screenshot === null ? [] : [screenshot]);
      erased.push({ id: row.id });
    } catch (error) {
      // Deleted meanwhile by someone else: nothing left to erase.
      if (!(error instanceof ServiceError && error.code === 'not_found')) throw error;
    }
  }
  return erased;
}

/** Erases one request in its own transaction; returns its screenshot's hash for the caller to release. */
async function eraseOne(context: OperationContext, principal: Principal, input: ProjectInput & { id: string }): Promise<string | null> {
  const screenshot = await context.store.transaction(async (trx) => {
    const scope = await projectInScope(trx, principal, input.workspace, input.project);
    const row = await findRequest(trx, scope.project.id, input.id);
    if (!row) throw new ServiceError('not_found', `no request "${input.id}" in project "${input.project}"`);
    const now = context.now();
    const erased: ErasedRequestData = { request: { id: row.id, createdAt: isoTime(row.created_at), deletedAt: isoTime(now) } };
    const events = await requestEvents(trx, scope.project.id, row.id);
    const tombstone = (event: { id: string; type: string; created_at: number }) =>
      JSON.stringify({ id: event.id, type: event.type, createdAt: isoTime(event.created_at), workspace: scope.workspace.slug, project: scope.project.name, data: erased });
    await eraseEventCopies(trx, events, tombstone, 'cancelled: the request was deleted', now);
    await deleteRequestRow(trx, row.id);
    await recordAudit(trx, context, principal, { action: 'request.deleted', workspaceId: scope.workspace.id, projectId: scope.project.id, object: { type: 'request', id: row.id } });
    return row.screenshot_sha256;
  });
  return screenshot;
}

/** The requests inbox's settings (`svc requests set` without flags, the requests page). */
export async function getRequestSettings(context: OperationContext, principal: Principal, input: ProjectInput): Promise<RequestSettings> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  return { retentionSeconds: await requestRetention(context.store.db, project.id) };
}

/**
 * `svc requests set --retention` (docs/privacy.md): requests older than this, whatever
 * their status, are removed in the background with their replies and screenshots; null keeps
 * them until deleted. A change is audited (`requests.settings_changed`) in its transaction.
 */
export async function updateRequestSettings(
  context: OperationContext,
  principal: Principal,
  input: ProjectInput & { retentionSeconds?: number | null | undefined },
): Promise<{ settings: RequestSettings; changed: boolean }> {
  const value = input.retentionSeconds;
  if (value !== undefined && value !== null && (!Number.isSafeInteger(value) || value < requestRetentionSeconds.min || value > requestRetentionSeconds.max)) {
    throw new ServiceError('validation_failed', 'retentionSeconds must be from 60 seconds to 10 years, or null', { errors: { retentionSeconds: 'must be from 60 seconds to 10 years, or null' } });
  }
  return context.store.transaction(async (trx) => {
    const { workspace, project } = await projectInScope(trx, principal, input.workspace, input.project);
    const before = await requestRetention(trx, project.id);
    if (value === undefined || value === before) return { settings: { retentionSeconds: before }, changed: false };
    await setRequestRetention(trx, project.id, value, context.now());
    await recordAudit(trx, context, principal, { action: 'requests.settings_changed', workspaceId: workspace.id, projectId: project.id });
    return { settings: { retentionSeconds: value }, changed: true };
  });
}
