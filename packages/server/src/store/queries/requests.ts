import type { Insertable } from 'kysely';
import type { RequestReplyRow, RequestRow, RequestsTable, RequestStatus } from '../schema.js';
import type { Db } from '../store.js';

export async function insertRequest(db: Db, request: Insertable<RequestsTable>): Promise<void> {
  await db.insertInto('requests').values(request).execute();
}

export async function findRequest(db: Db, projectId: string, id: string): Promise<RequestRow | undefined> {
  return db.selectFrom('requests').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

export interface RequestFilter {
  readonly statuses: readonly RequestStatus[];
  readonly environment?: string | undefined;
  /** Continue after this id (ids sort by time). */
  readonly before?: string | undefined;
  readonly limit: number;
}

/** The project's requests, newest first. */
export async function listRequests(db: Db, projectId: string, filter: RequestFilter): Promise<RequestRow[]> {
  let query = db.selectFrom('requests').selectAll().where('project_id', '=', projectId).where('status', 'in', filter.statuses);
  if (filter.environment !== undefined) query = query.where('environment', '=', filter.environment);
  if (filter.before !== undefined) query = query.where('id', '<', filter.before);
  return query.orderBy('id', 'desc').limit(filter.limit).execute();
}

export async function setRequestStatus(db: Db, id: string, status: RequestStatus, now: number): Promise<void> {
  await db.updateTable('requests').set({ status, updated_at: now }).where('id', '=', id).execute();
}

export async function insertReply(db: Db, reply: RequestReplyRow): Promise<void> {
  await db.insertInto('request_replies').values(reply).execute();
  await db.updateTable('requests').set({ updated_at: reply.created_at }).where('id', '=', reply.request_id).execute();
}

/** The replies to each of `requestIds`, oldest first. */
export async function repliesTo(db: Db, requestIds: readonly string[]): Promise<Map<string, RequestReplyRow[]>> {
  const byRequest = new Map<string, RequestReplyRow[]>(requestIds.map((id) => [id, []]));
  if (requestIds.length === 0) return byRequest;
  const rows = await db.selectFrom('request_replies').selectAll().where('request_id', 'in', requestIds).orderBy('id').execute();
  for (const row of rows) byRequest.get(row.request_id)?.push(row);
  return byRequest;
}

/** Counts per status, for the inbox's tabs. */
export async function countRequests(db: Db, projectId: string): Promise<Record<RequestStatus, number>> {
  const rows = await db.selectFrom('requests').select(['status', (eb) => eb.fn.countAll<number | string>().as('count')]).where('project_id', '=', projectId).groupBy('status').execute();
  const counts: Record<RequestStatus, number> = { open: 0, resolved: 0, spam: 0 };
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}

/** Removes a request; its replies go with it. */
export async function deleteRequestRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('request_replies').where('request_id', '=', id).execute();
  await db.deleteFrom('requests').where('id', '=', id).execute();
}

/**
 * The project's `request.*` events that carry this request: found by text, confirmed on the
 * parsed payload (events do not reference requests by column).
 */
export async function requestEvents(db: Db, projectId: string, requestId: string): Promise<{ id: string; type: string; created_at: number }[]> {
  const candidates = await db
    .selectFrom('events')
    .select(['id', 'type', 'payload', 'created_at'])
    .where('project_id', '=', projectId)
    .where('type', 'like', 'request.%')
    .where('payload', 'like', `%${requestId}%`)
    .execute();
  return candidates
    .filter((event) => (JSON.parse(event.payload) as { data?: { request?: { id?: unknown } } }).data?.request?.id === requestId)
    .map(({ id, type, created_at }) => ({ id, type, created_at: Number(created_at) }));
}

/**
 * Ids of the project's requests (every status) whose reporter's email, name or comment
 * contains `text`, case aside: the candidates of an erasure by address.
 */
export async function requestsMentioning(db: Db, projectId: string, text: string): Promise<{ id: string; email: string | null; name: string | null; comment: string }[]> {
  const needle = `%${text.toLowerCase()}%`;
  return db
    .selectFrom('requests')
    .select(['id', 'email', 'name', 'comment'])
    .where('project_id', '=', projectId)
    .where((eb) => eb.or([eb(eb.fn('lower', ['email']), 'like', needle), eb(eb.fn('lower', ['name']), 'like', needle), eb(eb.fn('lower', ['comment']), 'like', needle)]))
    .orderBy('id')
    .execute();
}

export async function requestRetention(db: Db, projectId: string): Promise<number | null> {
  const row = await db.selectFrom('projects').select('request_retention_seconds').where('id', '=', projectId).executeTakeFirst();
  return row?.request_retention_seconds ?? null;
}

export async function setRequestRetention(db: Db, projectId: string, seconds: number | null, now: number): Promise<void> {
  await db.updateTable('projects').set({ request_retention_seconds: seconds, updated_at: now }).where('id', '=', projectId).execute();
}
