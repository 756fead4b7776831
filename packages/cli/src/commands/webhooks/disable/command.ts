import { projectOptions } from '../../../common-options.js';
import { defineCommand } from '../../../command.js';
import { webhookIdArgument } from '../webhook-line.js';
import type { WebhooksDisableFlags } from './run-webhooks-disable.js';

export const webhooksDisableCommand = defineCommand<WebhooksDisableFlags>({
  name: 'disable',
  summary: 'stop deliveries to a webhook without removing it',
  description: 'Stop deliveries: new events are not sent to the webhook and its pending deliveries fail. `svc webhooks enable` turns it back on.',
  arguments: [webhookIdArgument],
  options: [{ flags: '--reason <text>', description: 'why, shown by `svc webhooks list`' }, ...projectOptions],
  examples: ['svc webhooks disable wh_… --reason "receiver down for maintenance"'],
  run: async (context) => (await import('./run-webhooks-disable.js')).runWebhooksDisable(context),
});
