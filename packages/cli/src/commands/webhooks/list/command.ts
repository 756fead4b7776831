import { projectOptions } from '../../../common-options.js';
import { defineCommand } from '../../../command.js';
import type { WebhooksListFlags } from './run-webhooks-list.js';

export const webhooksListCommand = defineCommand<WebhooksListFlags>({
  name: 'list',
  summary: 'list the project\'s webhooks (never their secrets)',
  options: [...projectOptions],
  examples: ['svc webhooks list', 'svc webhooks list --json | jq -r \'.webhooks[] | select(.enabled) | .url\''],
  run: async (context) => (await import('./run-webhooks-list.js')).runWebhooksList(context),
});
