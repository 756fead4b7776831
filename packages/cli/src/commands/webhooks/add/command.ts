import { projectOptions } from '../../../common-options.js';
import { defineCommand } from '../../../command.js';
import type { WebhooksAddFlags } from './run-webhooks-add.js';

export const webhooksAddCommand = defineCommand<WebhooksAddFlags>({
  name: 'add',
  summary: 'add a webhook and print its signing secret, this once',
  description: `Add a webhook: every event matching --events is POSTed to --url, signed with x-service-signature (HMAC-SHA256 with the signing secret). Patterns: *, form.*, deploy.*, request.*, or exact event types such as form.submission.created; comma-separated or the flag repeated. The signing secret (whsec_…) is printed this once: give it to the receiver.`,
  options: [
    { flags: '--url <url>', description: 'where to POST the events (http:// or https://)' },
    { flags: '--events <patterns...>', description: 'event patterns, e.g. form.* or form.submission.created,deploy.*' },
    { flags: '--description <text>', description: 'a note to recognise it by' },
    ...projectOptions,
  ],
  examples: [
    'svc webhooks add --url https://example.com/hooks/svc --events form.*',
    'svc webhooks add --url https://crm.example.com/in --events form.submission.created,deploy.* --description CRM',
    'svc webhooks add --url https://example.com/hook --events "*" --json | jq -r .secret',
  ],
  run: async (context) => (await import('./run-webhooks-add.js')).runWebhooksAdd(context),
});
