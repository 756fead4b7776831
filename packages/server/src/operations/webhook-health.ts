import { lastAttemptedDelivery, type LastAttemptSummary } from '../store/queries/webhook-activity.js';
import type { OperationContext, Principal } from './context.js';
import { isoTime } from '../lib/iso-time.js';
import type { WebhookInfo } from '@svc/protocol/api';
import { listWebhooks } from './webhooks.js';

/**
 * How a webhook is doing (docs/webhooks.md): `disabled` when it is off, `failing` while its
 * attempts fail (since the first failure after its last success), `healthy` otherwise;
 * `unknown` on the pages before anything was sent.
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
  if (webhook.health === 'healthy' && !last) return 'unknown';
  return webhook.health;
}
