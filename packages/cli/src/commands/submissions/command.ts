import type { CommandGroup } from '../../command.js';
import { submissionsExportCommand } from './export/command.js';
import { submissionsListCommand } from './list/command.js';

export const submissionsCommand: CommandGroup = {
  name: 'submissions',
  summary: 'a form\'s submissions: list them page by page, export them all',
  commands: [submissionsListCommand, submissionsExportCommand],
};
