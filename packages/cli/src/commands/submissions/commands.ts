import { submissionPageSize } from '@svc/protocol';
import { defineCommand, defineGroup } from '../../command.js';
import { projectFlags } from '../../common-options.js';

export const submissionsList = defineCommand({
  name: 'list',
  summary: 'list a form\'s submissions, newest first, a page at a time',
  description: `List a form's submissions, newest first: the inbox, or with --spam what was routed to Spam. Prints one page (--limit, ${submissionPageSize.default} by default, at most ${submissionPageSize.max}); when there are more, the next page is printed by the same command with --cursor and the cursor given.`,
  flags: {
    form: { flag: '--form <slug>', description: 'the form\'s slug (required)' },
    spam: { flag: '--spam', description: 'list the spam instead of the inbox' },
    limit: { flag: '--limit <n>', description: `submissions per page, 1 to ${submissionPageSize.max} (default ${submissionPageSize.default})` },
    cursor: { flag: '--cursor <cursor>', description: 'continue after the page that gave this cursor' },
    ...projectFlags,
  },
  examples: [
    'svc submissions list --form contact',
    'svc submissions list --form contact --spam --limit 50',
    'svc submissions list --form contact --json | jq -r .nextCursor',
  ],
  run: async (context): Promise<number> => (await import('./list.js')).list(context),
});

export const submissionsExport = defineCommand({
  name: 'export',
  summary: 'stream every submission of a form as CSV or NDJSON',
  description: `Stream every submission of a form (the inbox, or the spam with --spam), oldest first, to stdout or to --output FILE. The export holds what was stored when it started.

csv: RFC 4180 (CRLF line ends, quoted when needed). Columns: submission_id, submitted_at, then every field name used by any submission, in order of first use; file fields hold the file names. ndjson: one JSON object per line, as \`svc submissions list --json\` shows them.

A progress line is drawn on stderr when it is a terminal. With --json, --output is required and stdout holds one JSON summary.`,
  flags: {
    form: { flag: '--form <slug>', description: 'the form\'s slug (required)' },
    format: { flag: '--format <format>', description: 'csv or ndjson', defaultValue: 'csv', choices: ['csv', 'ndjson'] },
    spam: { flag: '--spam', description: 'export the spam instead of the inbox' },
    output: { flag: '-o, --output <file>', description: 'write to this file instead of stdout (replaced if it exists)' },
    ...projectFlags,
  },
  examples: [
    'svc submissions export --form contact > contact.csv',
    'svc submissions export --form contact --format ndjson | jq .fields.email',
    'svc submissions export --form contact --output contact.csv --json',
  ],
  run: async (context): Promise<number> => (await import('./export.js')).exportSubmissions(context),
});

export const submissionsCommand = defineGroup({
  name: 'submissions',
  summary: 'a form\'s submissions: list them page by page, export them all',
  commands: [submissionsList, submissionsExport],
});
