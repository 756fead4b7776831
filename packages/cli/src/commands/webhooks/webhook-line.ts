import type { WebhookInfo } from '@svc/protocol/api';

/** `wh_… → https://example.com/hook (form.*)`, plus its state when disabled. */
export function describeWebhook(webhook: WebhookInfo): string {
  const state = webhook.enabled ? '' : `, disabled: ${webhook.disabledReason ?? 'by hand'}`;
  return `${webhook.id} → ${webhook.url} (${webhook.events.join(', ')}${state})`;
}

/** The argument every per-webhook command takes. */
export const webhookIdArgument = { name: '<id>', description: 'the webhook\'s id (from `svc webhooks list`)' } as const;
