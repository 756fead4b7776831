import { auditPageSize } from '@svc/protocol';
import { handlersIn, lazyCommand } from '../../command.js';
import { pageFlags } from '../../common-options.js';

export const auditLogCommand = lazyCommand('audit-log', handlersIn(() => import('./run.js'))('list'), {
  summary: 'who changed what: the audit log, newest first (admin tokens, a workspace\'s tokens and owners)',
  description:
    'List the audit log, newest first: one entry per change made through the CLI, the settings area or an inbound webhook, with who acted, the action, the project and the object changed (by id, never its contents). An admin token sees every workspace unless --workspace names one; a workspace token sees its own. --since takes an ISO 8601 time or a duration back from now (24h, 7d). Entries are kept as long as `svc serve --retention-audit` says (400 days by default).',
  flags: {
    workspace: { flag: '--workspace <slug>', description: 'only this workspace (default: every workspace the token can read)' },
    project: { flag: '--project <name>', description: 'only this project of the workspace' },
    action: { flag: '--action <action>', description: 'only this action, e.g. webhook.deleted (docs/privacy.md lists them)' },
    since: { flag: '--since <time>', description: 'only entries since this time, ISO 8601 or a duration ago such as 7d' },
    ...pageFlags('entries', auditPageSize),
  },
  examples: [
    'svc audit-log --workspace acme',
    'svc audit-log --workspace acme --project site --action submission.deleted --since 30d',
    'svc audit-log --workspace acme --json | jq -r \'.entries[] | "\\(.at) \\(.actor.name) \\(.action)"\'',
  ],
});
