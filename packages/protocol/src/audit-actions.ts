/**
 * Every action the audit log records (docs/privacy.md, "The audit log"), as `svc audit-log
 * --action` and the page's filter take them. Adding one: docs/privacy.md says how.
 */
export const auditActions = [
  'session.started',
  'token.created',
  'token.revoked',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.renamed',
  'member.removed',
  'project.created',
  'config.pushed',
  'form.settings_changed',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'webhook.tested',
  'delivery.resent',
  'deliveries.replayed',
  'submission.moved',
  'submission.deleted',
  'submissions.erased',
  'submissions.exported',
  'submission.downloaded',
  'request.replied',
  'request.resolved',
  'request.reopened',
  'request.deleted',
  'requests.settings_changed',
  'deploy.created',
  'deploy.promoted',
  'deploy.rolled_back',
  'git.connected',
  'hook.created',
  'hook.removed',
  'build.queued',
] as const;

export type AuditAction = (typeof auditActions)[number];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && (auditActions as readonly string[]).includes(value);
}

/** Who acted: a token (admin or a workspace's), a member of the workspace, or the service itself. */
export const auditActorTypes = ['token', 'member', 'system'] as const;
export type AuditActorType = (typeof auditActorTypes)[number];

/** Entries per page of `svc audit-log` and the audit page. */
export const auditPageSize = { default: 50, max: 200 } as const;
