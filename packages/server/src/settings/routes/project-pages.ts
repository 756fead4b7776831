import { readableAuditLogs } from '../../operations/audit-log.js';
import type { FastifyInstance } from 'fastify';
import { projectActivity } from '../../operations/activity.js';
import { listProjectDeploys } from '../../operations/deploys.js';
import { listProjects } from '../../operations/projects.js';
import { projectRequestCounts } from '../../operations/requests.js';
import { projectUploadUsage } from '../../operations/upload-usage.js';
import { listWebhookStatuses } from '../../operations/webhook-health.js';
import { sendPage } from '../render.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import { OverviewPage } from '../views/overview-page.js';
import { ProjectsPage } from '../views/projects-page.js';
import { serviceHostnames, siteHostname } from '../../sites/hosted-sites.js';
import { projectPageBase, type ProjectParams } from './route-params.js';

/** `/` (to the settings area), `/settings` (projects the session can see) and each project's overview. */
export function projectPages(app: FastifyInstance, tools: SettingsRequestTools): void {
  const { context } = tools.dependencies;

  // The service's own address leads to the settings area (hosted sites answer `/` before
  // any route: http/hosting-routes.ts), and from there to /login without a session.
  // GET and HEAD declared together: Fastify's generated HEAD route would add an onSend hook
  // that rewrites content-length to the empty body's, also for a hosted site's HEAD of `/`.
  // A hostname that is not the service's and serves no site is not found, as before.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/',
    handler: (request, reply) => {
      // (And an asterisk-form target, `GET *`, which routing also takes for `/`.)
      if (!request.url.startsWith('/') || siteHostname(request.headers.host, serviceHostnames(context)) !== null) return reply.callNotFound();
      return reply.code(303).header('location', '/settings').send();
    },
  });

  app.get('/settings', async (request, reply) => {
    const projects = await listProjects(context, tools.session(request).principal, {});
    return sendPage(reply, 200, ProjectsPage({ frame: tools.frame(request), projects, auditLogs: await readableAuditLogs(context, tools.session(request).principal, projects.map((project) => project.workspace)) }));
  });

  app.get<{ Params: ProjectParams }>('/settings/:workspace/:project', async (request, reply) => {
    const { base, principal } = await projectPageBase(tools, request, request.params);
    const [webhooks, activity, requests, deploys, uploads] = await Promise.all([
      listWebhookStatuses(context, principal, request.params),
      projectActivity(context, principal, request.params),
      projectRequestCounts(context, principal, request.params),
      listProjectDeploys(context, principal, { ...request.params, limit: 1 }),
      projectUploadUsage(context, principal, request.params),
    ]);
    return sendPage(reply, 200, OverviewPage({ ...base, webhooks, activity, requests, live: deploys.live, uploads }));
  });
}
