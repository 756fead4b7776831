import { lastAttemptedDelivery, type LastAttemptSummary } from '../store/queries/webhook-activity.js';
import type { OperationContext, Principal } from './context.js';
import { isoTime } from './iso-time.js';
import type { WebhookInfo } from '@svc/protocol/api';
import { listWebhooks } from './webhooks.js';

/**
 * How a webhook is doing, from its newest attempted delivery: `disabled` when it is off,
 * `failing` when that delivery's last attempt did not get a 2xx, `healthy` when it did,
 * `unknown` before anything was sent.
 */
export type WebhookHealth = 'healthy' | 'failing' | 'disabled' | 'unknown';

export interface WebhookStatus {
  readonly webhook: WebhookInfo;
  readonly health: WebhookHealth;
  readonly lastAttempt: { readonly at: string; readonly statusCode: number | null; readonly error: string | null; readonly deliveryId: string } | null;
}

export async function listWebhookStatuses(context: OperationContext, principal: Principal, input: { workspace: string; project: string }): Promise<WebhookStatus[]> {
  const webhooks = await listWebhooks(context, principal, input);
  return Promise.all(
    webhooks.map(async (webhook) => {
      const last = await lastAttemptedDelivery(context.store.db, webhook.id);
      return { webhook, health: healthOf(webhook, last), lastAttempt: last ? { at: isoTime(last.at), statusCode: last.statusCode, error: last.error, deliveryId: last.deliveryId } : null };
    }),
  );
}

function healthOf(webhook: WebhookInfo, last: LastAttemptSummary | undefined): WebhookHealth {
  if (!webhook.enabled) return 'disabled';
  if (!last) return 'unknown';
  const succeeded = last.statusCode !== null && last.statusCode >= 200 && last.statusCode < 300;
  return succeeded ? 'healthy' : 'failing';
}
