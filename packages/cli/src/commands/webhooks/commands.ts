import { defineGroup, handlersIn } from '../../command.js';
import { idArgument, projectCommand } from '../../common-options.js';

const run = handlersIn(() => import('./run.js'));

const webhookId = idArgument('the webhook\'s id (from `svc webhooks list`)');

export const webhooksAdd = projectCommand('add', run('add'), {
  summary: 'add a webhook and print its signing secret, this once',
  description: `Add a webhook: every event matching --events is POSTed to --url, signed with x-service-signature (HMAC-SHA256 with the signing secret). Patterns: *, form.*, deploy.*, request.*, or exact event types such as form.submission.created; comma-separated or the flag repeated. The signing secret (whsec_…) is printed this once: give it to the receiver.`,
  flags: {
    url: { flag: '--url <url>', description: 'where to POST the events (http:// or https://)' },
    events: { flag: '--events <patterns...>', description: 'event patterns, e.g. form.* or form.submission.created,deploy.*' },
    description: { flag: '--description <text>', description: 'a note to recognise it by' },
  },
  examples: [
    'svc webhooks add --url https://example.com/hooks/svc --events form.*',
    'svc webhooks add --url https://crm.example.com/in --events form.submission.created,deploy.* --description CRM',
    'svc webhooks add --url https://example.com/hook --events "*" --json | jq -r .secret',
  ],
});

export const webhooksList = projectCommand('list', run('list'), {
  summary: 'list the project\'s webhooks (never their secrets)',
  examples: ['svc webhooks list', 'svc webhooks list --json | jq -r \'.webhooks[] | select(.enabled) | .url\''],
});

export const webhooksRemove = projectCommand('remove', run('remove'), {
  summary: 'remove a webhook with its delivery log; nothing more is sent to it',
  arguments: webhookId,
  examples: ['svc webhooks remove wh_06gztftsnm20n7cy0sc5myj7rr'],
});

export const webhooksRotateSecret = projectCommand('rotate-secret', run('rotateSecret'), {
  summary: 'give a webhook a new signing secret, printed this once',
  description: `Give a webhook a new signing secret, printed this once. For the grace period (--grace, 24h by default, at most 7d; 0 ends it at once) deliveries carry a signature with the old secret too (a second v1= in x-service-signature), so the receiver can switch without rejecting a delivery.`,
  arguments: webhookId,
  flags: { grace: { flag: '--grace <duration>', description: 'how long the old secret keeps signing too, e.g. 1h, 24h, 0 (default 24h)' } },
  examples: ['svc webhooks rotate-secret wh_…', 'svc webhooks rotate-secret wh_… --grace 0 --json | jq -r .secret'],
});

export const webhooksTest = projectCommand('test', run('test'), {
  summary: 'send a signed sample event to a webhook now and show the answer',
  description: `Send one signed sample event to this webhook only, now, and show what the receiver answered. --event picks its type from the event catalog (default form.submission.created; deploy.* and request.* samples too). Exit 0 when the receiver answered 2xx; otherwise exit 1 (delivery_failed), and the delivery is retried like any other.`,
  arguments: webhookId,
  flags: { event: { flag: '--event <type>', description: 'the sample event\'s type, e.g. deploy.succeeded' } },
  examples: ['svc webhooks test wh_…', 'svc webhooks test wh_… --event deploy.succeeded --json'],
});

export const webhooksEnable = projectCommand('enable', run('enable'), {
  summary: 'turn deliveries to a disabled webhook back on',
  description: 'Turn deliveries back on for new events (after `svc webhooks disable`, or after the receiver answered 410 Gone). Deliveries that failed meanwhile can be resent with `svc deliveries resend`.',
  arguments: webhookId,
  examples: ['svc webhooks enable wh_…'],
});

export const webhooksDisable = projectCommand('disable', run('disable'), {
  summary: 'stop deliveries to a webhook without removing it',
  description: 'Stop deliveries: new events are not sent to the webhook and its pending deliveries fail. `svc webhooks enable` turns it back on.',
  arguments: webhookId,
  flags: { reason: { flag: '--reason <text>', description: 'why, shown by `svc webhooks list`' } },
  examples: ['svc webhooks disable wh_… --reason "receiver down for maintenance"'],
});

export const webhooksCommand = defineGroup({
  name: 'webhooks',
  summary: 'the project\'s signed outbound webhooks: add, list, remove, rotate-secret, test',
  commands: [webhooksAdd, webhooksList, webhooksRemove, webhooksRotateSecret, webhooksTest, webhooksEnable, webhooksDisable],
});
