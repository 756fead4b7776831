import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '@svc/protocol';
import type { EnvironmentName } from '@svc/protocol/api';
import { listProjectDeploys, promoteDeploy, rollbackDeploy } from '../../operations/deploys.js';
import { environmentNames } from '../../operations/config-plan.js';
import { readProjectConfig } from '../../operations/project-config.js';
import { redirectTo, sendPage } from '../render.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import { projectPath } from '../views/overview-page.js';
import { DeploysPage } from '../views/deploys-page.js';
import { field, projectPageBase, type Body, type ProjectParams } from './route-params.js';

const notices: Record<string, string> = {
  promoted: 'Done: the environment serves that deploy now; webhooks get deploy.promoted.',
  'rolled-back': 'Rolled back: the environment serves the deploy before; webhooks get deploy.promoted.',
  unchanged: 'Nothing changed: the environment already served that deploy.',
};

/** The environment a form names; anything else is refused, never taken for production. */
function environmentOf(value: string): EnvironmentName {
  const known = environmentNames.find((name) => name === value);
  if (known === undefined) throw new ServiceError('validation_failed', `no environment "${value}"`, { errors: { environment: 'must be production, staging or development' } });
  return known;
}

/** The deploys page of a project (docs/hosting.md): per environment what is live; promote and roll back. */
export function deployPages(app: FastifyInstance, tools: SettingsRequestTools): void {
  const { context } = tools.dependencies;
  const principalOf = (request: FastifyRequest) => tools.session(request).principal;
  const deploysPath = (params: ProjectParams) => `${projectPath(params.workspace, params.project)}/deploys`;

  app.get<{ Params: ProjectParams; Querystring: { done?: string } }>('/settings/:workspace/:project/deploys', async (request, reply) => {
    const { base, principal } = await projectPageBase(tools, request, request.params);
    const [listing, config] = await Promise.all([listProjectDeploys(context, principal, { ...request.params, limit: 50 }), readProjectConfig(context, principal, request.params)]);
    const environments = environmentNames.filter((environment) => Object.hasOwn((config['environments'] ?? {}), environment));
    const notice = request.query.done === undefined ? undefined : notices[request.query.done];
    return sendPage(reply, 200, DeploysPage({ ...base, ...listing, environments, ...(notice ? { notice } : {}) }));
  });

  app.post<{ Params: ProjectParams & { id: string }; Body: Body }>('/settings/:workspace/:project/deploys/:id/promote', async (request, reply) => {
    const result = await promoteDeploy(context, principalOf(request), { ...request.params, to: environmentOf(field(request.body, 'to')) });
    return redirectTo(reply, `${deploysPath(request.params)}?done=${result.changed ? 'promoted' : 'unchanged'}`);
  });

  app.post<{ Params: ProjectParams; Body: Body }>('/settings/:workspace/:project/deploys/rollback', async (request, reply) => {
    const result = await rollbackDeploy(context, principalOf(request), { ...request.params, environment: environmentOf(field(request.body, 'environment')) });
    return redirectTo(reply, `${deploysPath(request.params)}?done=${result.changed ? 'rolled-back' : 'unchanged'}`);
  });
}
