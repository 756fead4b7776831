import { ServiceError } from '@svc/protocol';
import type { RequestCounts, RequestInfo, RequestStatus as ListedStatus } from '@svc/protocol/api';
import { newId } from '../lib/ids.js';
import { emitRequestEvent, eventRequest, replyInfo, requestInfo, type WidgetProject } from '../pinpoints/request-records.js';
import { countRequests, findRequest, insertReply, listRequests, repliesTo, setRequestStatus } from '../store/queries/requests.js';
import type { RequestReplyRow, RequestRow, RequestStatus } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { recordAudit } from './audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { actingName } from './rights.js';
import { requestCursor } from './listing-cursor.js';
import type { ProjectInput } from './project-config.js';
import { projectInScope, type ProjectInScope } from './scope.js';
import type { SubmissionFileDownload } from './submission-files.js';

export interface ListRequestsInput extends ProjectInput {
  readonly status: ListedStatus | 'all';
  readonly environment?: string | undefined;
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
}

/** `svc requests list`: newest first, a page at a time. */
export async function listProjectRequests(context: OperationContext, principal: Principal, input: ListRequestsInput): Promise<{ requests: RequestInfo[]; nextCursor: string | null }> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const limit = input.limit ?? 20;
  const statuses: RequestStatus[] = input.status === 'all' ? ['open', 'resolved'] : [input.status];
  const before = input.cursor === undefined ? undefined : requestCursor.decode(input.cursor);
  const rows = await listRequests(context.store.db, project.id, { statuses, environment: input.environment, before, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const replies = await repliesTo(context.store.db, page.map((row) => row.id));
  return {
    requests: page.map((row) => requestInfo(row, replies.get(row.id) ?? [])),
    nextCursor: rows.length > limit && page.length > 0 ? requestCursor.encode(page[page.length - 1]!.id) : null,
  };
}

/** How many requests each tab of the inbox holds. */
export async function projectRequestCounts(context: OperationContext, principal: Principal, input: ProjectInput): Promise<RequestCounts> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  return countRequests(context.store.db, project.id);
}

export interface RequestInput extends ProjectInput {
  readonly id: string;
}

/** `svc requests show`: one request with its thread. */
export async function getRequest(context: OperationContext, principal: Principal, input: RequestInput): Promise<{ request: RequestInfo }> {
  const { row } = await requestInScope(context.store.db, principal, input);
  return { request: await withReplies(context.store.db, row) };
}

/** `svc requests reply`: a reply signed with the token's name; `request.replied` in the same transaction. */
export async function replyToRequest(context: OperationContext, principal: Principal, input: RequestInput & { message: string }): Promise<{ request: RequestInfo }> {
  const message = input.message.trim();
  if (message === '') throw new ServiceError('validation_failed', 'message must not be empty', { errors: { message: 'must not be empty' } });
  const row = await context.store.transaction(async (trx) => {
    const found = await requestInScope(trx, principal, input);
    if (found.row.status === 'spam') throw new ServiceError('conflict', `request ${found.row.id} is spam; replies go to requests in the inbox`);
    const author = await actingName(trx, principal, found.workspace.id);
    const now = context.now();
    const reply: RequestReplyRow = { id: newId('rpl', now), request_id: found.row.id, author, message, created_at: now };
    await insertReply(trx, reply);
    const updated = { ...found.row, updated_at: now };
    await emitRequestEvent(trx, projectOf(found), 'request.replied', { request: eventRequest(updated), reply: replyInfo(reply) }, now);
    await recordAudit(trx, context, principal, { action: 'request.replied', workspaceId: found.workspace.id, projectId: found.project.id, object: { type: 'request', id: found.row.id } });
    return updated;
  });
  context.store.signals.events.announce();
  return { request: await withReplies(context.store.db, row) };
}

/**
 * `svc requests resolve` and `reopen`: the status and its event (`request.resolved`,
 * `request.reopened`) in one transaction; asking for the status it has changes nothing.
 */
export async function setRequestState(
  context: OperationContext,
  principal: Principal,
  input: RequestInput & { to: 'open' | 'resolved' },
): Promise<{ request: RequestInfo; changed: boolean }> {
  const result = await context.store.transaction(async (trx) => {
    const found = await requestInScope(trx, principal, input);
    if (found.row.status === 'spam') throw new ServiceError('conflict', `request ${found.row.id} is spam`);
    if (found.row.status === input.to) return { row: found.row, changed: false };
    const now = context.now();
    await setRequestStatus(trx, found.row.id, input.to, now);
    const updated: RequestRow = { ...found.row, status: input.to, updated_at: now };
    await emitRequestEvent(trx, projectOf(found), input.to === 'resolved' ? 'request.resolved' : 'request.reopened', { request: eventRequest(updated) }, now);
    await recordAudit(trx, context, principal, { action: input.to === 'resolved' ? 'request.resolved' : 'request.reopened', workspaceId: found.workspace.id, projectId: found.project.id, object: { type: 'request', id: found.row.id } });
    return { row: updated, changed: true };
  });
  if (result.changed) context.store.signals.events.announce();
  return { request: await withReplies(context.store.db, result.row), changed: result.changed };
}

/** `svc requests screenshot`: the stored PNG, byte for byte. */
export async function openRequestScreenshot(context: OperationContext, principal: Principal, input: RequestInput): Promise<SubmissionFileDownload> {
  const { row } = await requestInScope(context.store.db, principal, input);
  if (row.screenshot_sha256 === null) {
    const why = row.screenshot_error === null ? '' : ` (the widget said: ${row.screenshot_error})`;
    throw new ServiceError('not_found', `request ${row.id} came without a screenshot${why}`);
  }
  const content = await context.store.files.open(row.screenshot_sha256);
  if (content === null) throw new ServiceError('not_found', `the screenshot of request ${row.id} is missing from the file store`);
  return { name: `${row.id}.png`, contentType: 'image/png', size: row.screenshot_size ?? 0, content };
}

async function requestInScope(db: Db, principal: Principal, input: RequestInput): Promise<ProjectInScope & { row: RequestRow }> {
  const scope = await projectInScope(db, principal, input.workspace, input.project);
  const row = await findRequest(db, scope.project.id, input.id);
  if (!row) throw new ServiceError('not_found', `no request "${input.id}" in project "${input.project}"`);
  return { ...scope, row };
}

function projectOf(scope: ProjectInScope): WidgetProject {
  return { workspaceSlug: scope.workspace.slug, projectId: scope.project.id, projectName: scope.project.name };
}

async function withReplies(db: Db, row: RequestRow): Promise<RequestInfo> {
  return requestInfo(row, (await repliesTo(db, [row.id])).get(row.id) ?? []);
}
