import { deliveryListPageSize } from '@svc/protocol';
import { defineCommand, defineGroup } from '../../command.js';
import { projectFlags } from '../../common-options.js';

const deliveryId = { id: { description: 'the delivery\'s id (from `svc deliveries list`)' } } as const;

export const deliveriesList = defineCommand({
  name: 'list',
  summary: 'list the project\'s webhook deliveries, newest first',
  flags: {
    webhook: { flag: '--webhook <id>', description: 'only this webhook\'s deliveries' },
    status: { flag: '--status <status>', description: 'only pending, succeeded or failed ones', choices: ['pending', 'succeeded', 'failed'] },
    limit: { flag: '--limit <n>', description: `deliveries per page, 1 to ${deliveryListPageSize.max} (default ${deliveryListPageSize.default})` },
    cursor: { flag: '--cursor <cursor>', description: 'continue after the page that gave this cursor' },
    ...projectFlags,
  },
  examples: ['svc deliveries list', 'svc deliveries list --status failed', 'svc deliveries list --webhook wh_… --json'],
  run: async (context): Promise<number> => (await import('./run.js')).list(context),
});

export const deliveriesShow = defineCommand({
  name: 'show',
  summary: 'show a delivery and every attempt, with what the receiver answered',
  arguments: deliveryId,
  flags: projectFlags,
  examples: ['svc deliveries show dlv_…', 'svc deliveries show dlv_… --json | jq -r \'.attempts[-1].responseBody\''],
  run: async (context): Promise<number> => (await import('./run.js')).show(context),
});

export const deliveriesResend = defineCommand({
  name: 'resend',
  summary: 'queue a succeeded or failed delivery again, due now',
  description:
    'Queue a delivery again, due now, with a fresh retry budget; its log keeps every attempt. A delivery still pending is a conflict (it is sent when due), and so is one whose webhook is disabled.',
  arguments: deliveryId,
  flags: projectFlags,
  examples: ['svc deliveries resend dlv_…', 'svc deliveries list --status failed --json | jq -r \'.deliveries[].id\' | xargs -n1 svc deliveries resend'],
  run: async (context): Promise<number> => (await import('./run.js')).resend(context),
});

export const deliveriesCommand = defineGroup({
  name: 'deliveries',
  summary: 'webhook deliveries: list them, show one\'s attempts, resend one',
  commands: [deliveriesList, deliveriesShow, deliveriesResend],
});
