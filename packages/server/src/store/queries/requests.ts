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
