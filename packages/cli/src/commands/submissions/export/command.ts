import { projectOptions } from '../../../common-options.js';
import { defineCommand } from '../../../command.js';
import type { SubmissionsExportFlags } from './run-submissions-export.js';

export const submissionsExportCommand = defineCommand<SubmissionsExportFlags>({
  name: 'export',
  summary: 'stream every submission of a form as CSV or NDJSON',
  description: `Stream every submission of a form (the inbox, or the spam with --spam), oldest first, to stdout or to --output FILE. The export holds what was stored when it started.

csv: RFC 4180 (CRLF line ends, quoted when needed). Columns: submission_id, submitted_at, then every field name used by any submission, in order of first use; file fields hold the file names. ndjson: one JSON object per line, as \`svc submissions list --json\` shows them.

A progress line is drawn on stderr when it is a terminal. With --json, --output is required and stdout holds one JSON summary.`,
  options: [
    { flags: '--form <slug>', description: 'the form\'s slug (required)' },
    { flags: '--format <format>', description: 'csv or ndjson', defaultValue: 'csv', choices: ['csv', 'ndjson'] },
    { flags: '--spam', description: 'export the spam instead of the inbox' },
    { flags: '-o, --output <file>', description: 'write to this file instead of stdout (replaced if it exists)' },
    ...projectOptions,
  ],
  examples: [
    'svc submissions export --form contact > contact.csv',
    'svc submissions export --form contact --format ndjson | jq .fields.email',
    'svc submissions export --form contact --output contact.csv --json',
  ],
  run: async (context) => (await import('./run-submissions-export.js')).runSubmissionsExport(context),
});
