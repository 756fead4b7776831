import { ServiceError, type EventDataMap, type RequestInfo as EventRequest } from '@svc/protocol';
import type { RequestCounts, RequestInfo, RequestStatus as ListedStatus } from '@svc/protocol/api';
import { hashesEqual, hashToken } from '../auth/token-secrets.js';
import { newId, randomToken } from '../ids.js';
import type { VisitorRequest } from '../pinpoints/request-body.js';
import { countRequests, findRequest, insertReply, insertRequest, listRequests, repliesTo, setRequestStatus } from '../store/queries/requests.js';
import { insertEvent } from '../store/queries/outbox.js';
import type { RequestReplyRow, RequestRow, RequestStatus } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { recordAudit } from './audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { actingName } from './rights.js';
import { isoTime } from './iso-time.js';
import { requestCursor } from './listing-cursor.js';
import type { ProjectInput } from './project-config.js';
import { projectInScope, type ProjectInScope } from './scope.js';
import { releaseContents } from '../deploys/stored-contents.js';
import type { SubmissionFileDownload } from './submission-files.js';

/** The project a public widget call addressed, as the routes resolved it from the key. */
export interface WidgetProject {
  readonly workspaceSlug: string;
  readonly projectId: string;
  readonly projectName: string;
}

export interface NewVisitorRequest {
  readonly project: WidgetProject;
  readonly environment: 'production' | 'staging' | 'development';
  readonly visitor: VisitorRequest;
  /** Null where the project does not keep visitor IPs. */
  readonly clientIp: string | null;
  readonly userAgent: string | null;
  /** Caught by the honeypot: kept as spam, no event, the same answer. */
  readonly spam: boolean;
}

/**
 * `POST /api/p/{key}/requests` (docs/pinpoints.md): the screenshot made permanent, then the
 * request and its `request.created` event in one transaction; when that fails, the
 * screenshot is removed again (docs/privacy.md). The reporter's read token is returned
 * once; only its hash is kept.
 */
export async function createVisitorRequest(context: OperationContext, input: NewVisitorRequest): Promise<{ id: string; readToken: string }> {
  const { visitor } = input;
  const now = context.now();
  const id = newId('req', now);
  const readToken = randomToken(160);
  if (visitor.screenshot) await visitor.screenshot.staged.commit();
  const row: RequestRow = {
    id,
    project_id: input.project.projectId,
    environment: input.environment,
    status: input.spam ? 'spam' : 'open',
    comment: visitor.comment,
    url: visitor.url,
    selector: visitor.selector,
    name: visitor.name,
    email: visitor.email,
    viewport: visitor.viewport,
    element_x: visitor.elementBox?.x ?? null,
    element_y: visitor.elementBox?.y ?? null,
    element_width: visitor.elementBox?.width ?? null,
    element_height: visitor.elementBox?.height ?? null,
    user_agent: input.userAgent,
    client_ip: input.clientIp,
    screenshot_sha256: visitor.screenshot?.staged.sha256 ?? null,
    screenshot_size: visitor.screenshot?.staged.size ?? null,
    screenshot_error: visitor.screenshotError,
    read_token_hash: hashToken(readToken),
    created_at: now,
    updated_at: now,
  };
  try {
    await context.store.transaction(async (trx) => {
      await insertRequest(trx, row);
      if (!input.spam) await emit(trx, input.project, 'request.created', { request: eventRequest(row) }, now);
    });
  } catch (error) {
    // No request refers to the screenshot: it goes too, unless something else holds the same contents.
    if (visitor.screenshot) await releaseContents(context.store, [visitor.screenshot.staged.sha256]).catch((cause: unknown) => context.logger.warn({ err: cause }, 'a screenshot whose request failed is left to the sweep'));
    throw error;
  }
  if (!input.spam) context.store.signals.events.announce();
  return { id, readToken };
}

/** What the reporter sees in the widget: status, comment and replies; nothing of other visitors. */
export interface VisitorThread {
  readonly id: string;
  readonly status: 'open' | 'resolved';
  readonly comment: string;
  readonly createdAt: string;
  readonly replies: { author: string; message: string; createdAt: string }[];
}

/** `GET /api/p/{key}/requests/{id}?token=…`: `not_found` for a wrong token as for a missing request. */
export async function visitorThread(context: OperationContext, project: WidgetProject, id: string, readToken: string): Promise<VisitorThread> {
  const row = await findRequest(context.store.db, project.projectId, id);
  if (!row || row.status === 'spam' || !hashesEqual(row.read_token_hash, hashToken(readToken))) throw new ServiceError('not_found', 'no such request');
  const replies = (await repliesTo(context.store.db, [row.id])).get(row.id) ?? [];
  return {
    id: row.id,
    status: row.status,
    comment: row.comment,
    createdAt: isoTime(row.created_at),
    replies: replies.map((reply) => ({ author: reply.author, message: reply.message, createdAt: isoTime(reply.created_at) })),
  };
}

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
    const author = await actingName(trx, principal);
    const now = context.now();
    const reply: RequestReplyRow = { id: newId('rpl', now), request_id: found.row.id, author, message, created_at: now };
    await insertReply(trx, reply);
    const updated = { ...found.row, updated_at: now };
    await emit(trx, projectOf(found), 'request.replied', { request: eventRequest(updated), reply: replyInfo(reply) }, now);
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
    await emit(trx, projectOf(found), input.to === 'resolved' ? 'request.resolved' : 'request.reopened', { request: eventRequest(updated) }, now);
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

/** Writes a `request.*` event; its `data` is typed by the event catalog (@svc/protocol). */
async function emit<T extends `request.${string}` & keyof EventDataMap>(trx: Db, project: WidgetProject, type: T, data: EventDataMap[T], now: number): Promise<void> {
  const id = newId('evt', now);
  const payload = JSON.stringify({ id, type, createdAt: isoTime(now), workspace: project.workspaceSlug, project: project.projectName, data });
  await insertEvent(trx, { id, projectId: project.projectId, type, payload, now });
}

/** The request as events carry it: no image bytes, no IP unless the project keeps IPs. */
function eventRequest(row: RequestRow): EventRequest {
  const { ip, ...shared } = sharedFields(row);
  return { ...shared, status: row.status === 'resolved' ? 'resolved' : 'open', ...(ip === null ? {} : { ip }) };
}

/** The request as the inbox shows it: with its user agent, IP (or null) and replies. */
function requestInfo(row: RequestRow, replies: readonly RequestReplyRow[]): RequestInfo {
  return { ...sharedFields(row), status: row.status, userAgent: row.user_agent, updatedAt: isoTime(row.updated_at), replies: replies.map(replyInfo) };
}

function sharedFields(row: RequestRow) {
  return {
    id: row.id,
    environment: row.environment as EventRequest['environment'],
    url: row.url,
    selector: row.selector,
    comment: row.comment,
    name: row.name,
    email: row.email,
    viewport: row.viewport,
    elementBox: elementBoxOf(row),
    ip: row.client_ip,
    screenshot: screenshotInfo(row),
    screenshotError: row.screenshot_error,
    createdAt: isoTime(row.created_at),
  };
}

function elementBoxOf(row: RequestRow): EventRequest['elementBox'] {
  const { element_x: x, element_y: y, element_width: width, element_height: height } = row;
  return x === null || y === null || width === null || height === null ? null : { x, y, width, height };
}

function screenshotInfo(row: RequestRow): EventRequest['screenshot'] {
  return row.screenshot_sha256 === null ? null : { size: row.screenshot_size ?? 0, contentType: 'image/png', sha256: row.screenshot_sha256 };
}

function replyInfo(reply: RequestReplyRow): RequestInfo['replies'][number] {
  return { id: reply.id, author: reply.author, message: reply.message, createdAt: isoTime(reply.created_at) };
}
