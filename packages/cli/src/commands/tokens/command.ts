import type { CommandGroup } from '../../command.js';
import { tokensCreateCommand } from './create/command.js';
import { tokensListCommand } from './list/command.js';
import { tokensRevokeCommand } from './revoke/command.js';

export const tokensCommand: CommandGroup = {
  name: 'tokens',
  summary: 'CLI tokens: create, list, revoke (admin tokens only)',
  commands: [tokensCreateCommand, tokensListCommand, tokensRevokeCommand],
};
