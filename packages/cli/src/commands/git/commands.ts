import { defineGroup, handlersIn } from '../../command.js';
import { environmentFlag, idArgument, projectCommand } from '../../common-options.js';

const run = handlersIn(() => import('./run.js'));

export const gitConnect = projectCommand('connect', run('connect'), {
  summary: 'set the project\'s repository; prints its push webhook, the secret this once',
  description: `Set the git repository the service builds the project from (docs/hosting.md, "Deploys from git"): an https:// URL; for a private repository, name the environment variable that holds an access token with --token-env (the token is stored encrypted and never shown again). file:// URLs and local paths only when the server runs with --allow-local-repos. Prints the push webhook's URL and secret, this once: give both to GitHub, Gitea, Forgejo or GitLab. Connecting again rotates the secret.`,
  flags: {
    repo: { flag: '--repo <url>', description: 'the repository, e.g. https://github.com/acme/site.git' },
    tokenEnv: { flag: '--token-env <variable>', description: 'the environment variable holding an access token for a private repository' },
  },
  examples: ['svc git connect --repo https://github.com/acme/site.git', 'GIT_TOKEN=… svc git connect --repo https://gitlab.com/acme/site.git --token-env GIT_TOKEN', 'svc git connect --repo https://github.com/acme/site.git --json | jq -r .git.pushSecret'],
});

export const gitCommand = defineGroup({
  name: 'git',
  summary: 'deploys from git: connect the project\'s repository',
  commands: [gitConnect],
});

export const hooksCreate = projectCommand('create', run('createHook'), {
  summary: 'create a deploy hook; its URL is printed this once',
  description: 'A deploy hook is a URL that builds and deploys the head of an environment\'s branch when anything POSTs to it: for a CMS that publishes, or a schedule. The URL is the secret: it is printed this once.',
  flags: {
    environment: environmentFlag('--environment <environment>', 'which environment it deploys'),
    name: { flag: '--name <name>', description: 'a name to recognise it by; deploys it makes are created by this name' },
  },
  examples: ['svc hooks create --environment production --name cms', 'curl -X POST "$(svc hooks create --environment staging --json | jq -r .hook.url)"'],
});

export const hooksList = projectCommand('list', run('listHooks'), {
  summary: 'list the project\'s deploy hooks (never their URLs)',
  examples: ['svc hooks list', 'svc hooks list --json'],
});

export const hooksRemove = projectCommand('remove', run('removeHook'), {
  summary: 'remove a deploy hook: its URL stops working at once',
  arguments: idArgument('the hook\'s id (from `svc hooks list`)'),
  examples: ['svc hooks remove hook_06gztftsnm20n7cy0sc5myj7rr'],
});

export const hooksCommand = defineGroup({
  name: 'hooks',
  summary: 'deploy hooks: URLs that build and deploy an environment',
  commands: [hooksCreate, hooksList, hooksRemove],
});

export const buildsList = projectCommand('list', run('listBuilds'), {
  summary: 'builds from git, newest first, with their state; --all adds the pushes and hook calls that built nothing, and why',
  flags: {
    environment: environmentFlag('--environment <environment>', 'only this environment\'s builds (with --all, also the deliveries of no environment)'),
    all: { flag: '--all', description: 'also the push webhooks and deploy hook calls that were ignored or refused, each with its reason' },
  },
  examples: ['svc builds list', 'svc builds list --environment staging --json', 'svc builds list --all', 'svc builds list --all --json | jq \'.entries[] | select(.kind == "delivery") | .delivery.reason\''],
});

export const buildsShow = projectCommand('show', run('showBuild'), {
  summary: 'one build: its state, commit, trigger, deploy, and why it failed',
  arguments: idArgument('the build\'s id (bld_…)'),
  examples: ['svc builds show bld_…', 'svc builds show bld_… --json | jq -r .build.status'],
});

export const buildsLogs = projectCommand('logs', run('buildLogs'), {
  summary: 'a build\'s output (its last 1 MiB); --follow until it ends',
  arguments: idArgument('the build\'s id (bld_…)'),
  flags: { follow: { flag: '--follow', description: 'keep printing while the build runs' } },
  examples: ['svc builds logs bld_…', 'svc builds logs bld_… --follow'],
});

export const buildsCommand = defineGroup({
  name: 'builds',
  summary: 'builds from git: list, show, logs',
  commands: [buildsList, buildsShow, buildsLogs],
});
