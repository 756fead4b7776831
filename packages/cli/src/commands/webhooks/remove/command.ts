import { projectOptions } from '../../../common-options.js';
import { defineCommand } from '../../../command.js';
import { webhookIdArgument } from '../webhook-line.js';
import type { WebhooksRemoveFlags } from './run-webhooks-remove.js';

export const webhooksRemoveCommand = defineCommand<WebhooksRemoveFlags>({
  name: 'remove',
  summary: 'remove a webhook with its delivery log; nothing more is sent to it',
  arguments: [webhookIdArgument],
  options: [...projectOptions],
  examples: ['svc webhooks remove wh_06gztftsnm20n7cy0sc5myj7rr'],
  run: async (context) => (await import('./run-webhooks-remove.js')).runWebhooksRemove(context),
});
