import { eventPayloads, listAttemptsOf } from '../store/queries/delivery-log.js';
import type { OperationContext, Principal } from './context.js';
import type { DeliveryAttemptInfo, DeliveryInfo, WebhookInfo } from '@svc/protocol/api';
import { listDeliveries, toAttemptView, type ListDeliveriesInput } from './deliveries.js';
import { getWebhook } from './webhooks.js';

export interface LoggedAttempt extends DeliveryAttemptInfo {
  /** The request's headers as sent; null for attempts made before they were kept. */
  readonly requestHeaders: Record<string, string> | null;
}

export interface LoggedDelivery {
  readonly delivery: DeliveryInfo;
  readonly attempts: LoggedAttempt[];
  /** The request body every attempt sent (the event's payload). */
  readonly requestBody: string | null;
}

export interface DeliveryLog {
  readonly webhook: WebhookInfo;
  readonly deliveries: LoggedDelivery[];
  readonly nextCursor: string | null;
}

/** One webhook's delivery log: a page of deliveries, each with its attempts and request (the settings area). */
export async function webhookDeliveryLog(context: OperationContext, principal: Principal, input: ListDeliveriesInput & { webhookId: string }): Promise<DeliveryLog> {
  const webhook = await getWebhook(context, principal, { workspace: input.workspace, project: input.project, id: input.webhookId });
  const page = await listDeliveries(context, principal, input);
  const ids = page.deliveries.map((delivery) => delivery.id);
  const [attempts, payloads] = await Promise.all([listAttemptsOf(context.store.db, ids), eventPayloads(context.store.db, [...new Set(page.deliveries.map((delivery) => delivery.eventId))])]);
  const byDelivery = new Map<string, LoggedAttempt[]>();
  for (const row of attempts) {
    const list = byDelivery.get(row.delivery_id) ?? [];
    list.push({ ...toAttemptView(row), requestHeaders: parseHeaders(row.request_headers) });
    byDelivery.set(row.delivery_id, list);
  }
  return {
    webhook,
    deliveries: page.deliveries.map((delivery) => ({ delivery, attempts: byDelivery.get(delivery.id) ?? [], requestBody: payloads.get(delivery.eventId) ?? null })),
    nextCursor: page.nextCursor,
  };
}

function parseHeaders(text: string | null): Record<string, string> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as Record<string, string>) : null;
  } catch {
    return null;
  }
}
