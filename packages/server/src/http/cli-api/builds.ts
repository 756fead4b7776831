import {
  BuildLogQuery,
  BuildLogResponse,
  BuildResponse,
  ConnectGitRequest,
  ConnectGitResponse,
  CreateHookRequest,
  CreateHookResponse,
  DeployParams,
  HookParams,
  ListBuildsAndDeliveriesResponse,
  ListBuildsQuery,
  ListBuildsResponse,
  ListHooksResponse,
  ProjectParams,
  RemoveHookResponse,
} from '@svc/protocol/api';
import { buildLog, listProjectBuilds, showBuild } from '../../operations/builds.js';
import { listBuildsAndDeliveries } from '../../operations/inbound-log.js';
import { connectGit, createDeployHook, listProjectHooks, removeDeployHook } from '../../operations/git-connection.js';
import { principalOf, type CliRoutes } from './cli-api-instance.js';

/** Deploys from git (docs/hosting.md): the repository, deploy hooks, builds and their logs. */
export const buildRoutes: CliRoutes = (app, context) => {
  app.post('/projects/:workspace/:project/git', { schema: { params: ProjectParams, body: ConnectGitRequest, response: { 200: ConnectGitResponse } } }, async (request) => ({
    ok: true as const,
    ...(await connectGit(context, principalOf(request), { ...request.params, ...request.body })),
  }));

  app.post('/projects/:workspace/:project/hooks', { schema: { params: ProjectParams, body: CreateHookRequest, response: { 200: CreateHookResponse } } }, async (request) => ({
    ok: true as const,
    ...(await createDeployHook(context, principalOf(request), { ...request.params, ...request.body })),
  }));

  app.get('/projects/:workspace/:project/hooks', { schema: { params: ProjectParams, response: { 200: ListHooksResponse } } }, async (request) => ({
    ok: true as const,
    ...(await listProjectHooks(context, principalOf(request), request.params)),
  }));

  app.delete('/projects/:workspace/:project/hooks/:id', { schema: { params: HookParams, response: { 200: RemoveHookResponse } } }, async (request) => ({
    ok: true as const,
    ...(await removeDeployHook(context, principalOf(request), request.params)),
  }));

  app.get('/projects/:workspace/:project/builds', { schema: { params: ProjectParams, querystring: ListBuildsQuery, response: { 200: ListBuildsResponse } } }, async (request) => ({
    ok: true as const,
    ...(await listProjectBuilds(context, principalOf(request), { ...request.params, ...request.query })),
  }));

  // `svc builds list --all`: the builds and the deliveries that built nothing, newest first.
  app.get('/projects/:workspace/:project/inbound', { schema: { params: ProjectParams, querystring: ListBuildsQuery, response: { 200: ListBuildsAndDeliveriesResponse } } }, async (request) => ({
    ok: true as const,
    ...(await listBuildsAndDeliveries(context, principalOf(request), { ...request.params, ...request.query })),
  }));

  app.get('/projects/:workspace/:project/builds/:id', { schema: { params: DeployParams, response: { 200: BuildResponse } } }, async (request) => ({
    ok: true as const,
    ...(await showBuild(context, principalOf(request), request.params)),
  }));

  app.get('/projects/:workspace/:project/builds/:id/log', { schema: { params: DeployParams, querystring: BuildLogQuery, response: { 200: BuildLogResponse } } }, async (request) => ({
    ok: true as const,
    ...(await buildLog(context, principalOf(request), { ...request.params, ...request.query })),
  }));
};
