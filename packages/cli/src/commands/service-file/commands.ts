import { handlersIn, lazyCommand } from '../../command.js';
import { projectCommand, projectFlags, yesFlag } from '../../common-options.js';
import { frameworks } from '../../project/detect-framework.js';

// The commands that read or write ./service.json. Each loads its handler when it runs: the
// schema validator they share is not needed by the other commands' starts.

export const validateCommand = lazyCommand('validate', handlersIn(() => import('./validate.js'))('runValidate'), {
  summary: 'check service.json offline, with the line and column of every error',
  description:
    'Check a service.json offline: strict JSON syntax, every rule of the schema, unique form slugs, hostnames and keys.\n' +
    'Each error is printed as FILE:LINE:COLUMN error POINTER MESSAGE. Exit 0 when valid, 1 when invalid or unreadable.',
  arguments: { file: { description: 'the file to check (default: ./service.json)', optional: true } },
  examples: ['svc validate', 'svc validate sites/blog/service.json', 'svc validate --json'],
});

export const initCommand = lazyCommand('init', handlersIn(() => import('./init.js'))('runInit'), {
  summary: 'create the project on the service (and its workspace if new) and write ./service.json',
  description: `Create a project on the service, and its workspace if it is new (admin tokens only), then write ./service.json with $schema pointing at the server's schema. On a terminal, asks for what the flags do not give; otherwise uses defaults: the token's workspace, the directory's name, the framework detected in the directory (next.config.* → next, astro.config.* → astro, index.html → static, else unknown) and the git branch checked out (else main). Never overwrites an existing service.json without --force.`,
  flags: {
    workspace: { flag: '--workspace <slug>', description: 'workspace slug (default: the token\'s workspace)' },
    project: { flag: '--project <name>', description: 'project name (default: the directory\'s name)' },
    framework: { flag: '--framework <name>', description: 'framework (default: detected)', choices: frameworks },
    branch: { flag: '--branch <name>', description: 'git branch of production (default: the current branch, else main)' },
    ...yesFlag,
    force: { flag: '--force', description: 'overwrite an existing ./service.json' },
  },
  examples: ['svc init', 'svc init --workspace acme --project site --yes', 'svc init --workspace acme --project blog --framework astro --branch main --json'],
});

export const linkCommand = lazyCommand('link', handlersIn(() => import('./link.js'))('runLink'), {
  summary: 'link this directory to an existing project: write ./service.json from the service',
  description: `Write ./service.json from the state of an existing project on the service. On a terminal, lets you pick the project when --workspace and --project are not both given. Never overwrites an existing service.json without --force (use \`svc pull\` to refresh one).`,
  flags: {
    workspace: { flag: '--workspace <slug>', description: 'workspace of the project' },
    project: { flag: '--project <name>', description: 'project name' },
    ...yesFlag,
    force: { flag: '--force', description: 'overwrite an existing ./service.json' },
  },
  examples: ['svc link', 'svc link --workspace acme --project site', 'svc link --workspace acme --project site --force --json'],
});

export const pushCommand = lazyCommand('push', handlersIn(() => import('./push.js'))('runPush'), {
  summary: 'apply ./service.json to the service and print each form\'s endpoint URL',
  description: `Check ./service.json exactly as \`svc validate\` does, then apply it to the project in one transaction: framework, environments, forms (created, or renamed by slug: endpoint ids never change), domains, pinpoints and auto (auto is stored but not enforced yet). Prints each change of what is in effect and each form's slug, endpoint id and URL. Applying the same file again changes nothing.

A form that is on the server but not in the file is kept, with its submissions, and reported; --prune deletes such forms and their submissions (asking first on a terminal).`,
  flags: {
    ...projectFlags,
    prune: { flag: '--prune', description: 'delete forms missing from service.json, with their submissions' },
    dryRun: { flag: '--dry-run', description: 'show what would change, change nothing' },
    ...yesFlag,
  },
  examples: ['svc push', 'svc push --dry-run', 'svc push --prune --yes', 'svc push --json | jq -r \'.forms[] | "\\(.slug) \\(.url)"\''],
});

export const pullCommand = projectCommand('pull', handlersIn(() => import('./pull.js'))('runPull'), {
  summary: 'rewrite ./service.json from the project\'s state on the service',
  description: `Rewrite ./service.json from the project on the service. Keys are always written in the schema's order, with two-space indentation, so pulling twice gives the same file. A $schema already in the file is kept.`,
  examples: ['svc pull', 'svc pull --workspace acme --project site', 'svc pull --json'],
});
