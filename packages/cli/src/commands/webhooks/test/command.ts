import { projectOptions } from '../../../common-options.js';
import { defineCommand } from '../../../command.js';
import { webhookIdArgument } from '../webhook-line.js';
import type { WebhooksTestFlags } from './run-webhooks-test.js';

export const webhooksTestCommand = defineCommand<WebhooksTestFlags>({
  name: 'test',
  summary: 'send a signed sample event to a webhook now and show the answer',
  description: `Send one signed sample event to this webhook only, now, and show what the receiver answered. --event picks its type from the event catalog (default form.submission.created; deploy.* and request.* samples too). Exit 0 when the receiver answered 2xx; otherwise exit 1 (delivery_failed), and the delivery is retried like any other.`,
  arguments: [webhookIdArgument],
  options: [{ flags: '--event <type>', description: 'the sample event\'s type, e.g. deploy.succeeded' }, ...projectOptions],
  examples: ['svc webhooks test wh_…', 'svc webhooks test wh_… --event deploy.succeeded --json'],
  run: async (context) => (await import('./run-webhooks-test.js')).runWebhooksTest(context),
});
