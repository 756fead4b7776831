import { ListAuditLogQuery, ListAuditLogResponse } from '@svc/protocol/api';
import { listAuditLog } from '../../operations/audit-log.js';
import { ok, principalOf, type CliRoutes } from './cli-api-instance.js';

/** The audit log (`svc audit-log`): admin tokens, a workspace's tokens and its owners. */
export const auditLogRoutes: CliRoutes = (app, context) => {
  app.get('/audit-log', { schema: { querystring: ListAuditLogQuery, response: { 200: ListAuditLogResponse } } }, async (request) =>
    ok(await listAuditLog(context, principalOf(request), request.query)),
  );
};
