import { projectOptions } from '../../../common-options.js';
import { defineCommand } from '../../../command.js';
import { webhookIdArgument } from '../webhook-line.js';
import type { WebhooksEnableFlags } from './run-webhooks-enable.js';

export const webhooksEnableCommand = defineCommand<WebhooksEnableFlags>({
  name: 'enable',
  summary: 'turn deliveries to a disabled webhook back on',
  description: 'Turn deliveries back on for new events (after `svc webhooks disable`, or after the receiver answered 410 Gone). Deliveries that failed meanwhile can be resent with `svc deliveries resend`.',
  arguments: [webhookIdArgument],
  options: [...projectOptions],
  examples: ['svc webhooks enable wh_…'],
  run: async (context) => (await import('./run-webhooks-enable.js')).runWebhooksEnable(context),
});
