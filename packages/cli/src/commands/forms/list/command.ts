import { projectOptions } from '../../../common-options.js';
import { defineCommand } from '../../../command.js';
import type { FormsListFlags } from './run-forms-list.js';

export const formsListCommand = defineCommand<FormsListFlags>({
  name: 'list',
  summary: 'list the project\'s forms: slug, name, endpoint id, URL, rate limit',
  options: [...projectOptions],
  examples: ['svc forms list', 'svc forms list --json | jq -r \'.forms[].url\''],
  run: async (context) => (await import('./run-forms-list.js')).runFormsList(context),
});
