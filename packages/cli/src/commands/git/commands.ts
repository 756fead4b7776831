import { defineCommand, defineGroup } from '../../command.js';
import { projectFlags } from '../../common-options.js';

const environmentChoices = ['production', 'staging', 'development'] as const;

export const gitConnect = defineCommand({
  name: 'connect',
  summary: 'set the project\'s repository; prints its push webhook, the secret this once',
  description: `Set the git repository the service builds the project from (docs/hosting.md, "Deploys from git"): an https:// URL; for a private repository, name the environment variable that holds an access token with --token-env (the token is stored encrypted and never shown again). file:// URLs and local paths only when the server runs with --allow-local-repos. Prints the push webhook's URL and secret, this once: give both to GitHub, Gitea, Forgejo or GitLab. Connecting again rotates the secret.`,
  flags: {
    repo: { flag: '--repo <url>', description: 'the repository, e.g. https://github.com/acme/site.git' },
    tokenEnv: { flag: '--token-env <variable>', description: 'the environment variable holding an access token for a private repository' },
    ...projectFlags,
  },
  examples: ['svc git connect --repo https://github.com/acme/site.git', 'GIT_TOKEN=… svc git connect --repo https://gitlab.com/acme/site.git --token-env GIT_TOKEN', 'svc git connect --repo https://github.com/acme/site.git --json | jq -r .git.pushSecret'],
  run: async (context): Promise<number> => (await import('./run.js')).connect(context),
});

export const gitCommand = defineGroup({
  name: 'git',
  summary: 'deploys from git: connect the project\'s repository',
  commands: [gitConnect],
});

export const hooksCreate = defineCommand({
  name: 'create',
  summary: 'create a deploy hook; its URL is printed this once',
  description: 'A deploy hook is a URL that builds and deploys the head of an environment\'s branch when anything POSTs to it: for a CMS that publishes, or a schedule. The URL is the secret: it is printed this once.',
  flags: {
    environment: { flag: '--environment <environment>', description: 'which environment it deploys', choices: environmentChoices },
    name: { flag: '--name <name>', description: 'a name to recognise it by; deploys it makes are created by this name' },
    ...projectFlags,
  },
  examples: ['svc hooks create --environment production --name cms', 'curl -X POST "$(svc hooks create --environment staging --json | jq -r .hook.url)"'],
  run: async (context): Promise<number> => (await import('./run.js')).createHook(context),
});

export const hooksList = defineCommand({
  name: 'list',
  summary: 'list the project\'s deploy hooks (never their URLs)',
  flags: projectFlags,
  examples: ['svc hooks list', 'svc hooks list --json'],
  run: async (context): Promise<number> => (await import('./run.js')).listHooks(context),
});

export const hooksRemove = defineCommand({
  name: 'remove',
  summary: 'remove a deploy hook: its URL stops working at once',
  arguments: { id: { description: 'the hook\'s id (from `svc hooks list`)' } },
  flags: projectFlags,
  examples: ['svc hooks remove hook_06gztftsnm20n7cy0sc5myj7rr'],
  run: async (context): Promise<number> => (await import('./run.js')).removeHook(context),
});

export const hooksCommand = defineGroup({
  name: 'hooks',
  summary: 'deploy hooks: URLs that build and deploy an environment',
  commands: [hooksCreate, hooksList, hooksRemove],
});

export const buildsList = defineCommand({
  name: 'list',
  summary: 'builds from git, newest first, with their state; --all adds the pushes and hook calls that built nothing, and why',
  flags: {
    environment: { flag: '--environment <environment>', description: 'only this environment\'s builds (with --all, also the deliveries of no environment)', choices: environmentChoices },
    all: { flag: '--all', description: 'also the push webhooks and deploy hook calls that were ignored or refused, each with its reason' },
    ...projectFlags,
  },
  examples: ['svc builds list', 'svc builds list --environment staging --json', 'svc builds list --all', 'svc builds list --all --json | jq \'.entries[] | select(.kind == "delivery") | .delivery.reason\''],
  run: async (context): Promise<number> => (await import('./run.js')).listBuilds(context),
});

export const buildsShow = defineCommand({
  name: 'show',
  summary: 'one build: its state, commit, trigger, deploy, and why it failed',
  arguments: { id: { description: 'the build\'s id (bld_…)' } },
  flags: projectFlags,
  examples: ['svc builds show bld_…', 'svc builds show bld_… --json | jq -r .build.status'],
  run: async (context): Promise<number> => (await import('./run.js')).showBuild(context),
});

export const buildsLogs = defineCommand({
  name: 'logs',
  summary: 'a build\'s output (its last 1 MiB); --follow until it ends',
  arguments: { id: { description: 'the build\'s id (bld_…)' } },
  flags: { follow: { flag: '--follow', description: 'keep printing while the build runs' }, ...projectFlags },
  examples: ['svc builds logs bld_…', 'svc builds logs bld_… --follow'],
  run: async (context): Promise<number> => (await import('./run.js')).buildLogs(context),
});

export const buildsCommand = defineGroup({
  name: 'builds',
  summary: 'builds from git: list, show, logs',
  commands: [buildsList, buildsShow, buildsLogs],
});
