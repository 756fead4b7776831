import { submissionPageSize } from '@svc/protocol';
import { defineGroup, handlersIn } from '../../command.js';
import { idArgument, pageFlags, projectCommand, yesFlag } from '../../common-options.js';

const owned = handlersIn(() => import('./owner.js'));

export const submissionsList = projectCommand('list', handlersIn(() => import('./list.js'))('list'), {
  summary: 'list a form\'s submissions, newest first, a page at a time',
  description: `List a form's submissions, newest first: the inbox, or with --spam what was routed to Spam. Prints one page (--limit, ${submissionPageSize.default} by default, at most ${submissionPageSize.max}); when there are more, the next page is printed by the same command with --cursor and the cursor given.`,
  flags: {
    form: { flag: '--form <slug>', description: 'the form\'s slug (required)' },
    spam: { flag: '--spam', description: 'list the spam instead of the inbox' },
    ...pageFlags('submissions', submissionPageSize),
  },
  examples: [
    'svc submissions list --form contact',
    'svc submissions list --form contact --spam --limit 50',
    'svc submissions list --form contact --json | jq -r .nextCursor',
  ],
});

export const submissionsExport = projectCommand('export', handlersIn(() => import('./export.js'))('exportSubmissions'), {
  summary: 'stream every submission of a form as CSV or NDJSON',
  description: `Stream every submission of a form (the inbox, or the spam with --spam), oldest first, to stdout or to --output FILE. The export holds what was stored when it started.

csv: RFC 4180 (CRLF line ends, quoted when needed). Columns: submission_id, submitted_at, then every field name used by any submission, in order of first use; file fields hold the file names. A cell that a spreadsheet would run as a formula (starting with =, +, -, @, a tab or CR) gets a leading ' unless --raw. ndjson: one JSON object per line, as \`svc submissions list --json\` shows them.

A progress line is drawn on stderr when it is a terminal. With --json, --output is required and stdout holds one JSON summary.`,
  flags: {
    form: { flag: '--form <slug>', description: 'the form\'s slug (required)' },
    format: { flag: '--format <format>', description: 'csv or ndjson', defaultValue: 'csv', choices: ['csv', 'ndjson'] },
    spam: { flag: '--spam', description: 'export the spam instead of the inbox' },
    output: { flag: '-o, --output <file>', description: 'write to this file instead of stdout (replaced if it exists)' },
    raw: { flag: '--raw', description: 'CSV cells exactly as submitted, even those a spreadsheet would run as formulas' },
  },
  examples: [
    'svc submissions export --form contact > contact.csv',
    'svc submissions export --form contact --format ndjson | jq .fields.email',
    'svc submissions export --form contact --output contact.csv --json',
  ],
});

const submissionId = idArgument('the submission\'s id (from `svc submissions list`)');

export const submissionsShow = projectCommand('show', owned('show'), {
  summary: 'show one submission: its form, state, every field and file',
  arguments: submissionId,
  examples: ['svc submissions show sub_…', 'svc submissions show sub_… --json | jq .submission.fields'],
});

export const submissionsDownload = projectCommand('download', owned('download'), {
  summary: 'download a submission\'s files, byte for byte as they were uploaded',
  description: `Write the files of a submission into --output (default: the current directory), under their uploaded names (made safe: no directories; a name already taken gets a number). --field keeps only the files of that field. Existing files are never overwritten.`,
  arguments: submissionId,
  flags: {
    field: { flag: '--field <name>', description: 'only the files of this field' },
    output: { flag: '-o, --output <dir>', description: 'the directory to write into (created if missing; default: .)' },
  },
  examples: ['svc submissions download sub_…', 'svc submissions download sub_… --field cv --output ./cvs --json'],
});

export const submissionsMove = projectCommand('move', owned('move'), {
  summary: 'move a submission to the inbox or to Spam',
  description: `Move a submission between the inbox and Spam. Moving it to the inbox sends form.submission.created to the webhooks (as if it had just arrived), moving it to Spam form.submission.spam; moving it where it already is changes nothing.`,
  arguments: submissionId,
  flags: { to: { flag: '--to <state>', description: 'inbox or spam', choices: ['inbox', 'spam'] } },
  examples: ['svc submissions move sub_… --to inbox', 'svc submissions move sub_… --to spam --json'],
});

export const submissionsDelete = projectCommand('delete', owned('remove'), {
  summary: 'delete a submission, its files and every copy of its fields',
  description: `Delete a submission for good: its fields, its files (unless another submission has the same contents), its idempotency key, and the copies its webhook events kept (their payloads become a tombstone, pending deliveries of them are cancelled, kept receiver answers are dropped). form.submission.deleted is sent, without the fields. Asks first on a terminal, unless --yes.`,
  arguments: submissionId,
  flags: yesFlag,
  examples: ['svc submissions delete sub_…', 'svc submissions delete sub_… --yes --json'],
});

export const submissionsErase = projectCommand('erase', owned('erase'), {
  summary: 'erase every submission and Pinpoints request of the project that holds an email address',
  description: `Erase one person's data: every submission of the project (all forms, inbox and spam) with a field value that contains the address, case aside, is deleted exactly as \`svc submissions delete\` does (files, idempotency key, every copy its events kept; form.submission.deleted is sent for each), and so is every Pinpoints request the address sent (its email) or that mentions it, as \`svc requests delete\` does. Prints how many of each. Asks first on a terminal, unless --yes.`,
  flags: {
    email: { flag: '--email <address>', description: 'the address to erase (required)' },
    ...yesFlag,
  },
  examples: ['svc submissions erase --email ada@example.com', 'svc submissions erase --email ada@example.com --yes --json | jq .erased'],
});

export const submissionsCommand = defineGroup({
  name: 'submissions',
  summary: 'a form\'s submissions: list, export, show, download, move, delete, erase',
  commands: [submissionsList, submissionsExport, submissionsShow, submissionsDownload, submissionsMove, submissionsDelete, submissionsErase],
});
