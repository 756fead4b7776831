import type { CommandGroup } from '../../command.js';
import { formsListCommand } from './list/command.js';
import { setRateLimitCommand } from './set-rate-limit/command.js';

export const formsCommand: CommandGroup = {
  name: 'forms',
  summary: 'the project\'s form endpoints: list them, set a form\'s rate limit',
  commands: [formsListCommand, setRateLimitCommand],
};
