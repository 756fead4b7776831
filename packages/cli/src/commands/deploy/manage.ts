import { cliPaths, ServiceError } from '@svc/protocol';
import { ListDeploysResponse, SwitchDeployResponse, type DeployInfo } from '@svc/protocol/api';
import type { ContextOf } from '../../command.js';
import { callProject } from '../../server-call.js';
import type { deploysList, deploysPromote, deploysRollback } from './commands.js';

/** `svc deploys list`: newest first, with what each environment serves. */
export async function list(context: ContextOf<typeof deploysList>): Promise<number> {
  const { out, options } = context;
  return callProject(
    context,
    ({ api, ref }) => api.get(cliPaths.deploys(ref.workspace, ref.project), ListDeploysResponse, { environment: options.environment }),
    (result) => {
      if (result.deploys.length === 0) return 'No deploys yet: `svc deploy` makes one.';
      return out.table(result.deploys, [
        { header: 'ID', value: (deploy: DeployInfo) => deploy.id },
        { header: 'ENV', value: (deploy) => deploy.environment },
        { header: 'STATE', value: (deploy) => (deploy.state === 'live' ? `live (${deploy.liveIn.join(', ')})` : deploy.state) },
        { header: 'FILES', value: (deploy) => String(deploy.files) },
        { header: 'BRANCH', value: (deploy) => deploy.branch ?? '' },
        { header: 'CREATED', value: (deploy) => deploy.createdAt },
      ]);
    },
  );
}

export async function promote(context: ContextOf<typeof deploysPromote>): Promise<number> {
  const to = context.options.to;
  if (to === undefined) throw new ServiceError('usage', 'say where with --to production|staging|development');
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.promoteDeploy(ref.workspace, ref.project, context.args.id), { to }, SwitchDeployResponse),
    (result) => (result.changed ? `${to} now serves ${result.deploy.id} (before: ${result.previous ?? 'nothing'}).` : `${to} already serves ${result.deploy.id}: nothing changed.`),
  );
}

export async function rollback(context: ContextOf<typeof deploysRollback>): Promise<number> {
  const environment = context.options.environment;
  if (environment === undefined) throw new ServiceError('usage', 'say which environment with --environment');
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.rollback(ref.workspace, ref.project), { environment, ...(context.args.id === undefined ? {} : { id: context.args.id }) }, SwitchDeployResponse),
    (result) => (result.changed ? `Rolled ${environment} back to ${result.deploy.id} (it served ${result.previous ?? 'nothing'}).` : `${environment} already serves ${result.deploy.id}: nothing changed.`),
  );
}
