import { ApplyConfigRequest, ApplyConfigResponse, CreateProjectRequest, CreateProjectResponse, ListProjectsQuery, ListProjectsResponse, ProjectConfigResponse, ProjectParams } from '@svc/protocol/api';
import { applyConfig, readProjectConfig } from '../../operations/project-config.js';
import { createProject, listProjects } from '../../operations/projects.js';
import { ok, principalOf, type CliRoutes } from './cli-api-instance.js';

/** Projects (`svc init`, `svc link`) and their configuration (`svc pull`, `svc push`). */
export const projectRoutes: CliRoutes = (app, context) => {
  app.get('/projects', { schema: { querystring: ListProjectsQuery, response: { 200: ListProjectsResponse } } }, async (request) =>
    ok({ projects: await listProjects(context, principalOf(request), { workspace: request.query.workspace }) }),
  );

  app.post('/projects', { schema: { body: CreateProjectRequest, response: { 200: CreateProjectResponse } } }, async (request) =>
    createProject(context, principalOf(request), { config: request.body.config }),
  );

  app.get('/projects/:workspace/:project/config', { schema: { params: ProjectParams, response: { 200: ProjectConfigResponse } } }, async (request) =>
    ok({ config: await readProjectConfig(context, principalOf(request), request.params) }),
  );

  app.put(
    '/projects/:workspace/:project/config',
    { schema: { params: ProjectParams, body: ApplyConfigRequest, response: { 200: ApplyConfigResponse } } },
    async (request) =>
      applyConfig(context, principalOf(request), {
        ...request.params,
        config: request.body.config,
        prune: request.body.prune ?? false,
        dryRun: request.body.dryRun ?? false,
      }),
  );
};
