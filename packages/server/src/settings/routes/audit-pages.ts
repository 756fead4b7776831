import type { FastifyInstance } from 'fastify';
import { ServiceError } from '@svc/protocol';
import { listAuditLog } from '../../operations/audit-log.js';
import { listProjects } from '../../operations/projects.js';
import { sendPage } from '../render.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import { AuditPage, type AuditFilters } from '../views/audit-page.js';

interface AuditQuery {
  project?: string;
  action?: string;
  cursor?: string;
}

/** `/settings/{workspace}/audit`: the workspace's audit log, filterable by project and action, a page at a time. */
export function auditPages(app: FastifyInstance, tools: SettingsRequestTools): void {
  const { context } = tools.dependencies;

  app.get<{ Params: { workspace: string }; Querystring: AuditQuery }>('/settings/:workspace/audit', async (request, reply) => {
    const principal = tools.session(request).principal;
    const { workspace } = request.params;
    const text = (value: unknown): string => (typeof value === 'string' ? value.trim().slice(0, 200) : '');
    const filters: AuditFilters = { project: text(request.query.project), action: text(request.query.action), cursor: text(request.query.cursor) || undefined };
    const projects = (await listProjects(context, principal, { workspace })).map((project) => project.project);
    const input = { workspace, ...(filters.project ? { project: filters.project } : {}), ...(filters.action ? { action: filters.action } : {}), ...(filters.cursor ? { cursor: filters.cursor } : {}) };
    try {
      const log = await listAuditLog(context, principal, input);
      return await sendPage(reply, 200, AuditPage({ frame: tools.frame(request), workspace, projects, log, filters }));
    } catch (error) {
      // A filter or page link that is not valid any more: the page says so and shows the newest entries.
      if (!(error instanceof ServiceError) || !['validation_failed', 'invalid_cursor', 'not_found'].includes(error.code)) throw error;
      const log = await listAuditLog(context, principal, { workspace });
      return sendPage(reply, error.status, AuditPage({ frame: tools.frame(request), workspace, projects, log, filters: { project: '', action: '', cursor: undefined }, error: error.message }));
    }
  });
}
