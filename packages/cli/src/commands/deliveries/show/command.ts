import { projectOptions } from '../../../common-options.js';
import { defineCommand } from '../../../command.js';
import type { DeliveriesShowFlags } from './run-deliveries-show.js';

export const deliveriesShowCommand = defineCommand<DeliveriesShowFlags>({
  name: 'show',
  summary: 'show a delivery and every attempt, with what the receiver answered',
  arguments: [{ name: '<id>', description: 'the delivery\'s id (from `svc deliveries list`)' }],
  options: [...projectOptions],
  examples: ['svc deliveries show dlv_…', 'svc deliveries show dlv_… --json | jq -r \'.attempts[-1].responseBody\''],
  run: async (context) => (await import('./run-deliveries-show.js')).runDeliveriesShow(context),
});
