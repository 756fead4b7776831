import { deliveryListPageSize, replayDeliveriesPerSecond } from '@svc/protocol';
import { defineGroup, handlersIn } from '../../command.js';
import { idArgument, pageFlags, projectCommand } from '../../common-options.js';

const run = handlersIn(() => import('./run.js'));

const deliveryId = idArgument('the delivery\'s id (from `svc deliveries list`)');

export const deliveriesList = projectCommand('list', run('list'), {
  summary: 'list the project\'s webhook deliveries, newest first',
  flags: {
    webhook: { flag: '--webhook <id>', description: 'only this webhook\'s deliveries' },
    status: { flag: '--status <status>', description: 'only pending, succeeded or failed ones', choices: ['pending', 'succeeded', 'failed'] },
    ...pageFlags('deliveries', deliveryListPageSize),
  },
  examples: ['svc deliveries list', 'svc deliveries list --status failed', 'svc deliveries list --webhook wh_… --json'],
});

export const deliveriesShow = projectCommand('show', run('show'), {
  summary: 'show a delivery and every attempt, with what the receiver answered',
  arguments: deliveryId,
  examples: ['svc deliveries show dlv_…', 'svc deliveries show dlv_… --json | jq -r \'.attempts[-1].responseBody\''],
});

export const deliveriesResend = projectCommand('resend', run('resend'), {
  summary: 'queue a succeeded or failed delivery again, due now',
  description:
    'Queue a delivery again, due now, with a fresh retry budget; its log keeps every attempt. A delivery still pending is a conflict (it is sent when due), and so is one whose webhook is disabled.',
  arguments: deliveryId,
  examples: ['svc deliveries resend dlv_…', 'svc deliveries list --status failed --json | jq -r \'.deliveries[].id\' | xargs -n1 svc deliveries resend'],
});

export const deliveriesReplay = projectCommand('replay', run('replay'), {
  summary: 'after a receiver\'s outage, send a webhook\'s failed deliveries of a time range again',
  description: `Queue again every finished delivery of one webhook created in [--since, --until): the failed ones, or with --status all the succeeded ones too. Each gets a fresh retry budget; they come due at ${replayDeliveriesPerSecond} a second so the receiver is not flooded. Deliveries still pending are left alone (they are sent when due). Times are ISO 8601 (2026-11-24T09:00:00Z) or a duration back from now (2h, 3d). Prints how many.`,
  flags: {
    webhook: { flag: '--webhook <id>', description: 'the webhook whose deliveries to replay (required)' },
    since: { flag: '--since <time>', description: 'from this time, ISO 8601 or a duration ago such as 24h (required)' },
    until: { flag: '--until <time>', description: 'until this time (default: now)' },
    status: { flag: '--status <status>', description: 'failed (default) or all', choices: ['failed', 'all'] },
  },
  examples: ['svc deliveries replay --webhook wh_… --since 6h', 'svc deliveries replay --webhook wh_… --since 2026-11-24T09:00:00Z --until 2026-11-24T12:00:00Z --status all --json'],
});

export const deliveriesCommand = defineGroup({
  name: 'deliveries',
  summary: 'webhook deliveries: list them, show one\'s attempts, resend one, replay a time range',
  commands: [deliveriesList, deliveriesShow, deliveriesResend, deliveriesReplay],
});
