import { auditPageSize, cliPaths, parseDuration, ServiceError } from '@svc/protocol';
import { ListAuditLogResponse, type AuditEntry } from '@svc/protocol/api';
import type { ContextOf } from '../../command.js';
import { parsePageLimit } from '../../page-limit.js';
import { callServer } from '../../server-call.js';
import type { auditLogCommand } from './commands.js';

export async function list(context: ContextOf<typeof auditLogCommand>): Promise<number> {
  const { options, out } = context;
  const limit = options.limit === undefined ? undefined : parsePageLimit(options.limit, auditPageSize.max);
  const since = options.since === undefined ? undefined : timeFrom(options.since, Date.now());
  const query = { workspace: options.workspace, project: options.project, action: options.action, since, limit, cursor: options.cursor };
  return callServer(
    context,
    (api) => api.get(cliPaths.auditLog(), ListAuditLogResponse, query),
    (page) =>
      page.entries.length === 0
        ? 'No entries.'
        : out.table(page.entries, [
            { header: 'AT', value: (entry) => entry.at },
            { header: 'ACTOR', value: actorText },
            { header: 'ACTION', value: (entry) => entry.action },
            { header: 'WHERE', value: (entry) => [entry.workspace, entry.project].filter((part) => part !== null).join('/') || '-' },
            { header: 'OBJECT', value: objectText },
            { header: 'CHANGE', value: (entry) => (entry.change === undefined ? '-' : `${entry.change.from ?? '-'} → ${entry.change.to ?? '-'}`) },
            { header: 'IP', value: (entry) => entry.ip ?? '-' },
          ]),
    (page) => page.nextCursor !== null && `More: svc audit-log --cursor ${page.nextCursor} (with the same filters)`,
  );
}

/** The name, with the kind and id beside it: a member who took a token's name is told from the token. */
function actorText(entry: AuditEntry): string {
  return `${entry.actor.name} (${entry.actor.type} ${entry.actor.id})`;
}

function objectText(entry: AuditEntry): string {
  if (entry.object === null) return '-';
  const { type, id, name } = entry.object;
  return name === undefined ? `${type} ${id}` : `${type} ${id} (${name})`;
}

/** An ISO 8601 time as given (the server checks it), or a duration back from now (`2h`, `7d`) as an ISO time. */
function timeFrom(text: string, now: number): string {
  if (/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return text.trim();
  try {
    return new Date(now - parseDuration(text)).toISOString();
  } catch {
    throw new ServiceError('usage', '--since takes an ISO 8601 time (2026-11-24T09:00:00Z) or a duration ago (6h, 7d)');
  }
}
