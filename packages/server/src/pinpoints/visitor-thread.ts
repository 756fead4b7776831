import { ServiceError } from '@svc/protocol';
import { hashesEqual, hashToken } from '../auth/token-secrets.js';
import { isoTime } from '../lib/iso-time.js';
import { findRequest, repliesTo } from '../store/queries/requests.js';
import type { Db } from '../store/store.js';
import type { WidgetProject } from './request-records.js';

/** What the reporter sees in the widget: status, comment and replies; nothing of other visitors. */
export interface VisitorThread {
  readonly id: string;
  readonly status: 'open' | 'resolved';
  readonly comment: string;
  readonly createdAt: string;
  readonly replies: { author: string; message: string; createdAt: string }[];
}

/** `GET /api/p/{key}/requests/{id}?token=…`: `not_found` for a wrong token as for a missing request. */
export async function visitorThread(db: Db, project: WidgetProject, id: string, readToken: string): Promise<VisitorThread> {
  const row = await findRequest(db, project.projectId, id);
  if (!row || row.status === 'spam' || !hashesEqual(row.read_token_hash, hashToken(readToken))) throw new ServiceError('not_found', 'no such request');
  const replies = (await repliesTo(db, [row.id])).get(row.id) ?? [];
  return {
    id: row.id,
    status: row.status,
    comment: row.comment,
    createdAt: isoTime(row.created_at),
    replies: replies.map((reply) => ({ author: reply.author, message: reply.message, createdAt: isoTime(reply.created_at) })),
  };
}
