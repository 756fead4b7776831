import { defineCommand, defineGroup } from '../../command.js';
import { projectFlags } from '../../common-options.js';

export const deployCommand = defineCommand({
  name: 'deploy',
  summary: 'upload a build of the site and make it live for an environment',
  description: `Deploy DIR (default by the framework in service.json: static → ., astro → dist, next → out) to an environment: the one given with --environment, else the one whose branch in service.json is the git branch checked out. --build runs \`npm run build\` first, its output on stderr.

Every file is hashed here; the service says which contents it lacks, only those are uploaded (a second deploy of the same tree uploads nothing), and the deploy goes live for its environment at once. Never uploaded: every name starting with "." (.git, .env, .npmrc, …) except the .well-known folder, node_modules, service.json, svc's own state, and what .svcignore lists (gitignore syntax); the output says what was skipped. A folder without index.html at its root is refused unless --allow-no-index. --dry-run prints what would be uploaded and skipped, and uploads nothing. Nothing is written into DIR. Progress on stderr when it is a terminal (docs/hosting.md).`,
  arguments: { dir: { description: 'the directory to deploy (default: the framework\'s output directory)', optional: true } },
  flags: {
    environment: { flag: '--environment <env>', description: 'production, staging or development (default: from the git branch)', choices: ['production', 'staging', 'development'] },
    build: { flag: '--build', description: 'run `npm run build` first' },
    dryRun: { flag: '--dry-run', description: 'print what would be uploaded and what is skipped; upload nothing, make no deploy' },
    allowNoIndex: { flag: '--allow-no-index', description: 'deploy a folder that has no index.html at its root' },
    ...projectFlags,
  },
  examples: ['svc deploy', 'svc deploy dist --environment staging', 'svc deploy --dry-run', 'svc deploy --build --json | jq -r .deploy.url'],
  run: async (context): Promise<number> => (await import('./run.js')).deploy(context),
});

const deployId = { id: { description: 'the deploy\'s id (from `svc deploys list`)' } } as const;

export const deploysList = defineCommand({
  name: 'list',
  summary: 'list the deploys, newest first, and what each environment serves',
  flags: {
    environment: { flag: '--environment <env>', description: 'only deploys to this environment', choices: ['production', 'staging', 'development'] },
    ...projectFlags,
  },
  examples: ['svc deploys list', 'svc deploys list --environment production --json'],
  run: async (context): Promise<number> => (await import('./manage.js')).list(context),
});

export const deploysPromote = defineCommand({
  name: 'promote',
  summary: 'make a finished deploy live on an environment (deploy.promoted)',
  arguments: deployId,
  flags: {
    to: { flag: '--to <env>', description: 'the environment to serve it on (required)', choices: ['production', 'staging', 'development'] },
    ...projectFlags,
  },
  examples: ['svc deploys promote dpl-… --to production'],
  run: async (context): Promise<number> => (await import('./manage.js')).promote(context),
});

export const deploysRollback = defineCommand({
  name: 'rollback',
  summary: 'serve an earlier deploy on an environment again (deploy.promoted)',
  description: 'Serve the deploy given, or without one the finished deploy of the environment before the one live now. What is served switches at once.',
  arguments: { id: { description: 'the deploy to go back to (default: the one before the live one)', optional: true } },
  flags: {
    environment: { flag: '--environment <env>', description: 'the environment to roll back (required)', choices: ['production', 'staging', 'development'] },
    ...projectFlags,
  },
  examples: ['svc deploys rollback --environment production', 'svc deploys rollback --environment staging dpl-…'],
  run: async (context): Promise<number> => (await import('./manage.js')).rollback(context),
});

export const deploysCommand = defineGroup({
  name: 'deploys',
  summary: 'the deploys of the project: list, promote, rollback',
  commands: [deploysList, deploysPromote, deploysRollback],
});
