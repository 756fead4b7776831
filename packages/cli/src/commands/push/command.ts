import { projectOptions, yesOption } from '../../common-options.js';
import { defineCommand } from '../../command.js';
import type { PushFlags } from './run-push.js';

export const pushCommand = defineCommand<PushFlags>({
  name: 'push',
  summary: 'apply ./service.json to the service and print each form\'s endpoint URL',
  description: `Check ./service.json exactly as \`svc validate\` does, then apply it to the project in one transaction: framework, environments, forms (created, or renamed by slug: endpoint ids never change), domains, pinpoints and auto. Prints what changed and each form's slug, endpoint id and URL. Applying the same file again changes nothing.

A form that is on the server but not in the file is kept, with its submissions, and reported; --prune deletes such forms and their submissions (asking first on a terminal).`,
  options: [
    ...projectOptions,
    { flags: '--prune', description: 'delete forms missing from service.json, with their submissions' },
    { flags: '--dry-run', description: 'show what would change, change nothing' },
    yesOption,
  ],
  examples: ['svc push', 'svc push --dry-run', 'svc push --prune --yes', 'svc push --json | jq -r \'.forms[] | "\\(.slug) \\(.url)"\''],
  run: async (context) => (await import('./run-push.js')).runPush(context),
});
