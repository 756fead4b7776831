import type { CommandGroup } from '../../command.js';
import { deliveriesListCommand } from './list/command.js';
import { deliveriesResendCommand } from './resend/command.js';
import { deliveriesShowCommand } from './show/command.js';

export const deliveriesCommand: CommandGroup = {
  name: 'deliveries',
  summary: 'webhook deliveries: list them, show one\'s attempts, resend one',
  commands: [deliveriesListCommand, deliveriesShowCommand, deliveriesResendCommand],
};
