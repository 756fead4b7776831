import type { CommandGroup } from '../../command.js';
import { webhooksAddCommand } from './add/command.js';
import { webhooksDisableCommand } from './disable/command.js';
import { webhooksEnableCommand } from './enable/command.js';
import { webhooksListCommand } from './list/command.js';
import { webhooksRemoveCommand } from './remove/command.js';
import { webhooksRotateSecretCommand } from './rotate-secret/command.js';
import { webhooksTestCommand } from './test/command.js';

export const webhooksCommand: CommandGroup = {
  name: 'webhooks',
  summary: 'the project\'s signed outbound webhooks: add, list, remove, rotate-secret, test',
  commands: [webhooksAddCommand, webhooksListCommand, webhooksRemoveCommand, webhooksRotateSecretCommand, webhooksTestCommand, webhooksEnableCommand, webhooksDisableCommand],
};
