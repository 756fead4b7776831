import { projectOptions } from '../../common-options.js';
import { defineCommand } from '../../command.js';
import type { PullFlags } from './run-pull.js';

export const pullCommand = defineCommand<PullFlags>({
  name: 'pull',
  summary: 'rewrite ./service.json from the project\'s state on the service',
  description: `Rewrite ./service.json from the project on the service. Keys are always written in the schema's order, with two-space indentation, so pulling twice gives the same file. A $schema already in the file is kept.`,
  options: [...projectOptions],
  examples: ['svc pull', 'svc pull --workspace acme --project site', 'svc pull --json'],
  run: async (context) => (await import('./run-pull.js')).runPull(context),
});
