import { yesOption } from '../../common-options.js';
import { defineCommand } from '../../command.js';
import { frameworks } from '../../project/detect-framework.js';
import type { InitFlags } from './run-init.js';

export const initCommand = defineCommand<InitFlags>({
  name: 'init',
  summary: 'create the project on the service (and its workspace if new) and write ./service.json',
  description: `Create a project on the service, and its workspace if it is new (admin tokens only), then write ./service.json with $schema pointing at the server's schema. On a terminal, asks for what the flags do not give; otherwise uses defaults: the token's workspace, the directory's name, the framework detected in the directory (next.config.* → next, astro.config.* → astro, index.html → static, else unknown) and the git branch checked out (else main). Never overwrites an existing service.json without --force.`,
  options: [
    { flags: '--workspace <slug>', description: 'workspace slug (default: the token\'s workspace)' },
    { flags: '--project <name>', description: 'project name (default: the directory\'s name)' },
    { flags: '--framework <name>', description: 'framework (default: detected)', choices: frameworks },
    { flags: '--branch <name>', description: 'git branch of production (default: the current branch, else main)' },
    yesOption,
    { flags: '--force', description: 'overwrite an existing ./service.json' },
  ],
  examples: ['svc init', 'svc init --workspace acme --project site --yes', 'svc init --workspace acme --project blog --framework astro --branch main --json'],
  run: async (context) => (await import('./run-init.js')).runInit(context),
});
