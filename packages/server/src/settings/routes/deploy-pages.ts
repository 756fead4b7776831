import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@svc/protocol';
import type { EnvironmentName } from '@svc/protocol/api';
import { listBuildsWithLogTail } from '../../operations/builds.js';
import { listDeliveriesThatBuiltNothing } from '../../operations/inbound-log.js';
import { listProjectDeploys, promoteDeploy, rollbackDeploy, rollbackTargets } from '../../operations/deploys.js';
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

/** An action's failure the person can do something about, shown on the deploys page; anything else goes to the error page. */
function shownOnPage(error: unknown): error is ServiceError {
  return error instanceof ServiceError && error.status >= 400 && error.status < 500 && error.code !== 'unauthorized';
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** The deploys page of a project (docs/hosting.md): per environment what is live; promote and roll back. */
export function deployPages(app: FastifyInstance, tools: SettingsRequestTools): void {
  const { context } = tools.dependencies;
  const principalOf = (request: FastifyRequest) => tools.session(request).principal;
  const deploysPath = (params: ProjectParams) => `${projectPath(params.workspace, params.project)}/deploys`;

  const showDeploys = async (request: FastifyRequest, reply: FastifyReply, params: ProjectParams, status: number, extra: { notice?: string; error?: string }) => {
    const { base, principal } = await projectPageBase(tools, request, params);
    const [listing, config, rollbackTo, builds, deliveries] = await Promise.all([
      listProjectDeploys(context, principal, { ...params, limit: 50 }),
      readProjectConfig(context, principal, params),
      rollbackTargets(context, principal, params),
      listBuildsWithLogTail(context, principal, { ...params, limit: 20 }),
      listDeliveriesThatBuiltNothing(context, principal, { ...params, limit: 20 }),
    ]);
    const declared = config['environments'] ?? {};
    const environments = environmentNames.filter((environment) => Object.hasOwn(declared, environment));
    const domains = (config['domains'] ?? {}) as Partial<Record<EnvironmentName, readonly string[]>>;
    return sendPage(reply, status, DeploysPage({ ...base, ...listing, builds, deliveries, environments, domains, rollbackTo, ...extra }));
  };

  app.get<{ Params: ProjectParams; Querystring: { done?: string } }>('/settings/:workspace/:project/deploys', async (request, reply) => {
    const notice = request.query.done === undefined ? undefined : notices[request.query.done];
    return showDeploys(request, reply, request.params, 200, notice ? { notice } : {});
  });

  /** Runs an action; when it fails, answers with the page and its error: the person stays in the project. */
  const attempt = async (request: FastifyRequest, reply: FastifyReply, params: ProjectParams, failure: string, done: string, run: () => Promise<{ changed: boolean }>) => {
    try {
      const result = await run();
      return redirectTo(reply, `${deploysPath(params)}?done=${result.changed ? done : 'unchanged'}`);
    } catch (error) {
      if (!shownOnPage(error)) throw error;
      return showDeploys(request, reply, params, error.status, { error: `${failure}: ${sentence(error.message)}` });
    }
  };

  app.post<{ Params: ProjectParams & { id: string }; Body: Body }>('/settings/:workspace/:project/deploys/:id/promote', (request, reply) =>
    attempt(request, reply, request.params, 'Not made live', 'promoted', () => promoteDeploy(context, principalOf(request), { ...request.params, to: environmentOf(field(request.body, 'to')) })),
  );

  app.post<{ Params: ProjectParams; Body: Body }>('/settings/:workspace/:project/deploys/rollback', (request, reply) =>
    attempt(request, reply, request.params, 'Not rolled back', 'rolled-back', () => rollbackDeploy(context, principalOf(request), { ...request.params, environment: environmentOf(field(request.body, 'environment')) })),
  );
}
