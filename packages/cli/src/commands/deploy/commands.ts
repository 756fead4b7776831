import { defineGroup, handlersIn } from '../../command.js';
import { environmentFlag, idArgument, projectCommand } from '../../common-options.js';

const managed = handlersIn(() => import('./manage.js'));

export const deployCommand = projectCommand('deploy', handlersIn(() => import('./run.js'))('deploy'), {
  summary: 'upload a build of the site and make it live for an environment',
  description: `Deploy DIR (default by the framework in service.json: static → ., astro → dist, next → out) to an environment: the one given with --environment, else the one whose branch in service.json is the git branch checked out. --build runs \`npm run build\` first, its output on stderr.

Every file is hashed here; the service says which contents it lacks, only those are uploaded (a second deploy of the same tree uploads nothing), and the deploy goes live for its environment at once. Never uploaded: every name starting with "." (.git, .env, .npmrc, …) except the .well-known folder, node_modules, service.json, svc's own state, and what .svcignore lists (gitignore syntax); the output says what was skipped. A folder without index.html at its root is refused unless --allow-no-index. --dry-run prints what would be uploaded and skipped, and uploads nothing. Nothing is written into DIR. Progress on stderr when it is a terminal (docs/hosting.md).`,
  arguments: { dir: { description: 'the directory to deploy (default: the framework\'s output directory)', optional: true } },
  flags: {
    environment: environmentFlag('--environment <env>', 'production, staging or development (default: from the git branch)'),
    build: { flag: '--build', description: 'run `npm run build` first' },
    dryRun: { flag: '--dry-run', description: 'print what would be uploaded and what is skipped; upload nothing, make no deploy' },
    allowNoIndex: { flag: '--allow-no-index', description: 'deploy a folder that has no index.html at its root' },
  },
  examples: ['svc deploy', 'svc deploy dist --environment staging', 'svc deploy --dry-run', 'svc deploy --build --json | jq -r .deploy.url'],
});

const deployId = idArgument('the deploy\'s id (from `svc deploys list`)');

export const deploysList = projectCommand('list', managed('list'), {
  summary: 'list the deploys, newest first, and what each environment serves',
  flags: { environment: environmentFlag('--environment <env>', 'only deploys to this environment') },
  examples: ['svc deploys list', 'svc deploys list --environment production --json'],
});

export const deploysPromote = projectCommand('promote', managed('promote'), {
  summary: 'make a finished deploy live on an environment (deploy.promoted)',
  arguments: deployId,
  flags: { to: environmentFlag('--to <env>', 'the environment to serve it on (required)') },
  examples: ['svc deploys promote dpl-… --to production'],
});

export const deploysRollback = projectCommand('rollback', managed('rollback'), {
  summary: 'serve an earlier deploy on an environment again (deploy.promoted)',
  description: 'Serve the deploy given, or without one the finished deploy of the environment before the one live now. What is served switches at once.',
  arguments: { id: { description: 'the deploy to go back to (default: the one before the live one)', optional: true } },
  flags: { environment: environmentFlag('--environment <env>', 'the environment to roll back (required)') },
  examples: ['svc deploys rollback --environment production', 'svc deploys rollback --environment staging dpl-…'],
});

export const deploysCommand = defineGroup({
  name: 'deploys',
  summary: 'the deploys of the project: list, promote, rollback',
  commands: [deploysList, deploysPromote, deploysRollback],
});
