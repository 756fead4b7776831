import { projectOptions } from '../../../common-options.js';
import { defineCommand } from '../../../command.js';
import { webhookIdArgument } from '../webhook-line.js';
import type { WebhooksRotateSecretFlags } from './run-webhooks-rotate-secret.js';

export const webhooksRotateSecretCommand = defineCommand<WebhooksRotateSecretFlags>({
  name: 'rotate-secret',
  summary: 'give a webhook a new signing secret, printed this once',
  description: `Give a webhook a new signing secret, printed this once. For the grace period (--grace, 24h by default, at most 7d; 0 ends it at once) deliveries carry a signature with the old secret too (a second v1= in x-service-signature), so the receiver can switch without rejecting a delivery.`,
  arguments: [webhookIdArgument],
  options: [{ flags: '--grace <duration>', description: 'how long the old secret keeps signing too, e.g. 1h, 24h, 0 (default 24h)' }, ...projectOptions],
  examples: ['svc webhooks rotate-secret wh_…', 'svc webhooks rotate-secret wh_… --grace 0 --json | jq -r .secret'],
  run: async (context) => (await import('./run-webhooks-rotate-secret.js')).runWebhooksRotateSecret(context),
});
