import { setTimeout as sleep } from 'node:timers/promises';
import { cliPaths, ServiceError } from '@svc/protocol';
import {
  BuildLogResponse,
  BuildResponse,
  ConnectGitResponse,
  CreateHookResponse,
  ListBuildsAndDeliveriesResponse,
  ListBuildsResponse,
  ListHooksResponse,
  RemoveHookResponse,
  type BuildInfo,
  type BuildsListEntry,
  type InboundDeliveryInfo,
} from '@svc/protocol/api';
import { terminalSafe } from '../../format/printable.js';
import type { ContextOf } from '../../command.js';
import { requireArgument } from '../../require-argument.js';
import { callProject, openProject } from '../../server-call.js';
import type { buildsList, buildsLogs, buildsShow, gitConnect, hooksCreate, hooksList, hooksRemove } from './commands.js';

export async function connect(context: ContextOf<typeof gitConnect>): Promise<number> {
  const { options, io } = context;
  if (options.repo === undefined || options.repo === '') throw new ServiceError('usage', 'name the repository with --repo https://…');
  let token: string | undefined;
  if (options.tokenEnv !== undefined) {
    token = io.env[options.tokenEnv];
    if (token === undefined || token === '') throw new ServiceError('usage', `--token-env ${options.tokenEnv}: that environment variable is not set`);
  }
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.git(ref.workspace, ref.project), { repo: options.repo, ...(token === undefined ? {} : { token }) }, ConnectGitResponse),
    ({ git }) =>
      [
        `Connected ${git.repo}.`,
        'Add a push webhook to the repository (docs/hosting.md, "Deploys from git"):',
        `  URL:    ${git.pushUrl}`,
        `  Secret: ${git.pushSecret}   (shown only this once; connecting again makes a new one)`,
        '  Content type: application/json; events: push.',
      ].join('\n'),
  );
}

export async function createHook(context: ContextOf<typeof hooksCreate>): Promise<number> {
  const { environment, name } = context.options;
  if (environment === undefined) throw new ServiceError('usage', 'say which environment the hook deploys with --environment');
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.hooks(ref.workspace, ref.project), { environment, ...(name === undefined ? {} : { name }) }, CreateHookResponse),
    ({ hook }) => [`Created deploy hook ${hook.id} (${hook.name}) for ${hook.environment}.`, `URL (shown only this once; POST to it to deploy): ${hook.url}`].join('\n'),
  );
}

export async function listHooks(context: ContextOf<typeof hooksList>): Promise<number> {
  const { out } = context;
  return callProject(
    context,
    ({ api, ref }) => api.get(cliPaths.hooks(ref.workspace, ref.project), ListHooksResponse),
    (result) =>
      result.hooks.length === 0
        ? 'No deploy hooks: `svc hooks create --environment production` makes one.'
        : out.table(result.hooks, [
            { header: 'ID', value: (hook) => hook.id },
            { header: 'NAME', value: (hook) => hook.name },
            { header: 'ENV', value: (hook) => hook.environment },
            { header: 'LAST USED', value: (hook) => hook.lastUsedAt ?? 'never' },
          ]),
  );
}

export async function removeHook(context: ContextOf<typeof hooksRemove>): Promise<number> {
  const id = requireArgument(context.args.id, 'the hook\'s id');
  return callProject(
    context,
    ({ api, ref }) => api.delete(cliPaths.hook(ref.workspace, ref.project, id), RemoveHookResponse),
    () => `Removed deploy hook ${id}: its URL no longer deploys.`,
  );
}

export async function listBuilds(context: ContextOf<typeof buildsList>): Promise<number> {
  const { out, options } = context;
  if (options.all === true) return listBuildsAndDeliveries(context);
  return callProject(
    context,
    ({ api, ref }) => api.get(cliPaths.builds(ref.workspace, ref.project), ListBuildsResponse, { environment: options.environment }),
    (result) =>
      result.builds.length === 0
        ? 'No builds yet: connect the repository with `svc git connect` and push.'
        : out.table(result.builds, [
            { header: 'ID', value: (build: BuildInfo) => build.id },
            { header: 'ENV', value: (build) => build.environment },
            { header: 'STATUS', value: (build) => build.status },
            { header: 'COMMIT', value: (build) => build.commit?.slice(0, 12) ?? '(branch head)' },
            { header: 'TRIGGER', value: (build) => `${build.trigger} (${build.createdBy})` },
            { header: 'CREATED', value: (build) => build.createdAt },
          ]),
  );
}

/** Where a delivery came from, as a person reads it: `push (github) refs/heads/main`, `hook cms`. */
function deliverySource(delivery: InboundDeliveryInfo): string {
  if (delivery.source === 'hook') return `hook ${delivery.hook?.name ?? ''}`.trimEnd();
  const event = delivery.event === null || delivery.event === 'push' || delivery.event === 'Push Hook' ? '' : ` ${delivery.event}`;
  return `push (${delivery.host ?? 'unsigned'}${event})${delivery.ref === null ? '' : ` ${delivery.ref}`}`;
}

/** `svc builds list --all`: builds, and the deliveries that built nothing with their reason, newest first. */
async function listBuildsAndDeliveries(context: ContextOf<typeof buildsList>): Promise<number> {
  const { out, options } = context;
  const of = <T>(entry: BuildsListEntry, build: (build: BuildInfo) => T, delivery: (delivery: InboundDeliveryInfo) => T): T => (entry.kind === 'build' ? build(entry.build) : delivery(entry.delivery));
  return callProject(
    context,
    ({ api, ref }) => api.get(cliPaths.inbound(ref.workspace, ref.project), ListBuildsAndDeliveriesResponse, { environment: options.environment }),
    (result) =>
      result.entries.length === 0
        ? 'No builds and no push or hook calls yet: connect the repository with `svc git connect` and push.'
        : out.table(result.entries, [
            { header: 'ID', value: (entry: BuildsListEntry) => of(entry, (build) => build.id, (delivery) => delivery.id) },
            { header: 'WHAT', value: (entry) => entry.kind },
            { header: 'ENV', value: (entry) => of(entry, (build) => build.environment, (delivery) => delivery.environment ?? '-') },
            { header: 'STATUS', value: (entry) => of(entry, (build) => build.status, (delivery) => delivery.verdict) },
            { header: 'COMMIT', value: (entry) => of(entry, (build) => build.commit?.slice(0, 12) ?? '(branch head)', (delivery) => delivery.commit?.slice(0, 12) ?? '-') },
            { header: 'FROM', value: (entry) => of(entry, (build) => `${build.trigger} (${build.createdBy})`, deliverySource) },
            { header: 'WHEN', value: (entry) => of(entry, (build) => build.createdAt, (delivery) => delivery.receivedAt) },
            { header: 'WHY', value: (entry) => of(entry, (build) => build.error ?? '', (delivery) => delivery.reason ?? '') },
          ]),
  );
}

export async function showBuild(context: ContextOf<typeof buildsShow>): Promise<number> {
  const id = requireArgument(context.args.id, 'the build\'s id');
  return callProject(
    context,
    ({ api, ref }) => api.get(cliPaths.build(ref.workspace, ref.project, id), BuildResponse),
    ({ build }) =>
      [
        `${build.id}: ${build.status}`,
        `environment ${build.environment}, branch ${build.branch}, commit ${build.commit ?? '(the branch head, read when it starts)'}`,
        `trigger ${build.trigger} by ${build.createdBy}, created ${build.createdAt}${build.finishedAt === null ? '' : `, finished ${build.finishedAt}`}`,
        ...(build.deploy === null ? [] : [`deploy ${build.deploy}`]),
        ...(build.error === null ? [] : [`error: ${build.error}`]),
      ].join('\n'),
  );
}

/** How often `--follow` asks for more of the log. */
const followIntervalMs = 1_000;

export async function buildLogs(context: ContextOf<typeof buildsLogs>): Promise<number> {
  const id = requireArgument(context.args.id, 'the build\'s id');
  const { out, options } = context;
  const { api, ref } = await openProject(context);
  const path = cliPaths.buildLog(ref.workspace, ref.project, id);
  let answer = await api.get(path, BuildLogResponse);
  if (!options.follow || options.json) {
    out.result(answer, () => answer.log);
    return 0;
  }
  // The repository's code printed this: shown as every human output is, its control characters escaped.
  context.io.stdout.write(terminalSafe(answer.log));
  while (!answer.done) {
    await sleep(followIntervalMs);
    answer = await api.get(path, BuildLogResponse, { offset: answer.offset });
    context.io.stdout.write(terminalSafe(answer.log));
  }
  out.note(`build ${id} ${answer.status}`);
  return answer.status === 'succeeded' ? 0 : 1;
}
