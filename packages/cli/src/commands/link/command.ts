import { yesOption } from '../../common-options.js';
import { defineCommand } from '../../command.js';
import type { LinkFlags } from './run-link.js';

export const linkCommand = defineCommand<LinkFlags>({
  name: 'link',
  summary: 'link this directory to an existing project: write ./service.json from the service',
  description: `Write ./service.json from the state of an existing project on the service. On a terminal, lets you pick the project when --workspace and --project are not both given. Never overwrites an existing service.json without --force (use \`svc pull\` to refresh one).`,
  options: [
    { flags: '--workspace <slug>', description: 'workspace of the project' },
    { flags: '--project <name>', description: 'project name' },
    yesOption,
    { flags: '--force', description: 'overwrite an existing ./service.json' },
  ],
  examples: ['svc link', 'svc link --workspace acme --project site', 'svc link --workspace acme --project site --force --json'],
  run: async (context) => (await import('./run-link.js')).runLink(context),
});
