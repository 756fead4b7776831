import { deliveryListPageSize } from '@svc/protocol';
import { projectOptions } from '../../../common-options.js';
import { defineCommand } from '../../../command.js';
import type { DeliveriesListFlags } from './run-deliveries-list.js';

export const deliveriesListCommand = defineCommand<DeliveriesListFlags>({
  name: 'list',
  summary: 'list the project\'s webhook deliveries, newest first',
  options: [
    { flags: '--webhook <id>', description: 'only this webhook\'s deliveries' },
    { flags: '--status <status>', description: 'only pending, succeeded or failed ones', choices: ['pending', 'succeeded', 'failed'] },
    { flags: '--limit <n>', description: `deliveries per page, 1 to ${deliveryListPageSize.max} (default ${deliveryListPageSize.default})` },
    { flags: '--cursor <cursor>', description: 'continue after the page that gave this cursor' },
    ...projectOptions,
  ],
  examples: ['svc deliveries list', 'svc deliveries list --status failed', 'svc deliveries list --webhook wh_… --json'],
  run: async (context) => (await import('./run-deliveries-list.js')).runDeliveriesList(context),
});
