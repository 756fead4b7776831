import { ServiceError, deliveryListPageSize } from '@svc/protocol';
import type { DeliveryAttemptInfo, DeliveryInfo } from '@svc/protocol/api';
import { findProjectWebhook } from '../store/queries/webhooks.js';
import { findDelivery, listAttempts, listDeliveries as queryDeliveries, requeueDelivery, type DeliveryRecord } from '../store/queries/deliveries.js';
import type { DeliveryAttemptRow, DeliveryStatus } from '../store/schema.js';
import { recordAudit } from './audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { isoTime, isoTimeOrNull } from '../lib/iso-time.js';
import { deliveryCursor } from './listing-cursor.js';
import { projectInScope } from './scope.js';

export const deliveryStatuses: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed'];

export interface DeliveryProjectInput {
  readonly workspace: string;
  readonly project: string;
}

export interface DeliveryIdInput extends DeliveryProjectInput {
  readonly id: string;
}

export interface ListDeliveriesInput extends DeliveryProjectInput {
  readonly webhookId?: string | undefined;
  readonly status?: DeliveryStatus | undefined;
  /** Only deliveries of this exact event type. */
  readonly eventType?: string | undefined;
  /** 1 to 100; default 20. */
  readonly limit?: number | undefined;
  /** `nextCursor` of the previous page. */
  readonly cursor?: string | undefined;
}

export interface DeliveryPage {
  readonly deliveries: DeliveryInfo[];
  /** Opaque; null on the last page. */
  readonly nextCursor: string | null;
}

export interface DeliveryWithAttempts {
  readonly delivery: DeliveryInfo;
  /** Every attempt, oldest first. */
  readonly attempts: DeliveryAttemptInfo[];
}

export function toDeliveryInfo(row: DeliveryRecord): DeliveryInfo {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attemptCount: row.attempts,
    nextAttemptAt: row.status === 'pending' ? isoTime(row.next_attempt_at) : null,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
    completedAt: isoTimeOrNull(row.completed_at),
  };
}

export function toAttemptView(row: DeliveryAttemptRow): DeliveryAttemptInfo {
  return {
    attempt: row.attempt,
    startedAt: isoTime(row.started_at),
    durationMs: row.duration_ms,
    statusCode: row.status_code,
    error: row.error,
    responseBody: row.response_body,
  };
}

/** `svc deliveries list`: a project's deliveries, newest first, by webhook and status if asked. */
export async function listDeliveries(context: OperationContext, principal: Principal, input: ListDeliveriesInput): Promise<DeliveryPage> {
  const db = context.store.db;
  const { project } = await projectInScope(db, principal, input.workspace, input.project);
  if (input.status !== undefined && !deliveryStatuses.includes(input.status)) {
    throw new ServiceError('validation_failed', `status must be one of ${deliveryStatuses.join(', ')}`, { errors: { status: `must be one of ${deliveryStatuses.join(', ')}` } });
  }
  if (input.webhookId !== undefined && !(await findProjectWebhook(db, project.id, input.webhookId))) {
    throw new ServiceError('not_found', `no webhook "${input.webhookId}" in project "${input.project}"`);
  }
  const limit = Math.min(Math.max(Math.trunc(input.limit ?? deliveryListPageSize.default), 1), deliveryListPageSize.max);
  const before = input.cursor === undefined ? undefined : deliveryCursor.decode(input.cursor);
  const rows = await queryDeliveries(db, { projectId: project.id, webhookId: input.webhookId, status: input.status, eventType: input.eventType, before, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { deliveries: page.map(toDeliveryInfo), nextCursor: rows.length > limit && last ? deliveryCursor.encode(last.id) : null };
}

/** One delivery with its whole attempt log. */
export async function getDelivery(context: OperationContext, principal: Principal, input: DeliveryIdInput): Promise<DeliveryWithAttempts> {
  const row = await deliveryInScope(context, principal, input);
  const attempts = await listAttempts(context.store.db, row.id);
  return { delivery: toDeliveryInfo(row), attempts: attempts.map(toAttemptView) };
}

/**
 * `svc deliveries resend`: a succeeded or failed delivery is queued again, due now, with a
 * fresh retry budget; its attempt numbers keep counting up and its log keeps every attempt.
 * `conflict` while it is still pending or while its webhook is disabled.
 */
export async function resendDelivery(context: OperationContext, principal: Principal, input: DeliveryIdInput): Promise<DeliveryInfo> {
  const store = context.store;
  const row = await store.transaction(async (trx) => {
    const delivery = await deliveryInScope(context, principal, input, trx);
    const webhook = await findProjectWebhook(trx, delivery.project_id, delivery.webhook_id);
    if (webhook && webhook.enabled !== 1) throw new ServiceError('conflict', `webhook ${webhook.id} is disabled; enable it before resending its deliveries`);
    if (!(await requeueDelivery(trx, delivery.id, context.now()))) throw new ServiceError('conflict', `delivery ${delivery.id} is still pending; it is resent when it is due`);
    const { workspace } = await projectInScope(trx, principal, input.workspace, input.project);
    await recordAudit(trx, context, principal, { action: 'delivery.resent', workspaceId: workspace.id, projectId: delivery.project_id, object: { type: 'delivery', id: delivery.id } });
    return findDelivery(trx, delivery.id);
  });
  if (!row) throw new ServiceError('not_found', `no delivery "${input.id}"`);
  store.signals.events.announce();
  return toDeliveryInfo(row);
}

async function deliveryInScope(context: OperationContext, principal: Principal, input: DeliveryIdInput, db = context.store.db): Promise<DeliveryRecord> {
  const { project } = await projectInScope(db, principal, input.workspace, input.project);
  const row = await findDelivery(db, input.id);
  if (!row || row.project_id !== project.id) throw new ServiceError('not_found', `no delivery "${input.id}" in project "${input.project}"`);
  return row;
}
