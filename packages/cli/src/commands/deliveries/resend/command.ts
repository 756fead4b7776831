import { projectOptions } from '../../../common-options.js';
import { defineCommand } from '../../../command.js';
import type { DeliveriesResendFlags } from './run-deliveries-resend.js';

export const deliveriesResendCommand = defineCommand<DeliveriesResendFlags>({
  name: 'resend',
  summary: 'queue a succeeded or failed delivery again, due now',
  description:
    'Queue a delivery again, due now, with a fresh retry budget; its log keeps every attempt. A delivery still pending is a conflict (it is sent when due), and so is one whose webhook is disabled.',
  arguments: [{ name: '<id>', description: 'the delivery\'s id (from `svc deliveries list`)' }],
  options: [...projectOptions],
  examples: ['svc deliveries resend dlv_…', 'svc deliveries list --status failed --json | jq -r \'.deliveries[].id\' | xargs -n1 svc deliveries resend'],
  run: async (context) => (await import('./run-deliveries-resend.js')).runDeliveriesResend(context),
});
