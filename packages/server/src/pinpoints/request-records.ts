import type { EventDataMap, RequestInfo as EventRequest } from '@svc/protocol';
import type { RequestInfo } from '@svc/protocol/api';
import { newId } from '../lib/ids.js';
import { isoTime } from '../lib/iso-time.js';
import { insertEvent } from '../store/queries/outbox.js';
import type { RequestReplyRow, RequestRow } from '../store/schema.js';
import type { Db } from '../store/store.js';

/**
 * A Pinpoints request as the events and the inbox show it (docs/pinpoints.md), and the
 * `request.*` events: one place for the shapes the widget's intake and the inbox's
 * operations both write.
 */

/** The project a public widget call addressed, as the routes resolved it from the key. */
export interface WidgetProject {
  readonly workspaceSlug: string;
  readonly projectId: string;
  readonly projectName: string;
}

/** Writes a `request.*` event; its `data` is typed by the event catalog (@svc/protocol). */
export async function emitRequestEvent<T extends `request.${string}` & keyof EventDataMap>(trx: Db, project: WidgetProject, type: T, data: EventDataMap[T], now: number): Promise<void> {
  const id = newId('evt', now);
  const payload = JSON.stringify({ id, type, createdAt: isoTime(now), workspace: project.workspaceSlug, project: project.projectName, data });
  await insertEvent(trx, { id, projectId: project.projectId, type, payload, now });
}

/** The request as events carry it: no image bytes, no IP unless the project keeps IPs. */
export function eventRequest(row: RequestRow): EventRequest {
  const { ip, ...shared } = sharedFields(row);
  return { ...shared, status: row.status === 'resolved' ? 'resolved' : 'open', ...(ip === null ? {} : { ip }) };
}

/** The request as the inbox shows it: with its user agent, IP (or null) and replies. */
export function requestInfo(row: RequestRow, replies: readonly RequestReplyRow[]): RequestInfo {
  return { ...sharedFields(row), status: row.status, userAgent: row.user_agent, updatedAt: isoTime(row.updated_at), replies: replies.map(replyInfo) };
}

export function replyInfo(reply: RequestReplyRow): RequestInfo['replies'][number] {
  return { id: reply.id, author: reply.author, message: reply.message, createdAt: isoTime(reply.created_at) };
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
