import { submissionPageSize } from '@svc/protocol';
import { projectOptions } from '../../../common-options.js';
import { defineCommand } from '../../../command.js';
import type { SubmissionsListFlags } from './run-submissions-list.js';

export const submissionsListCommand = defineCommand<SubmissionsListFlags>({
  name: 'list',
  summary: 'list a form\'s submissions, newest first, a page at a time',
  description: `List a form's submissions, newest first: the inbox, or with --spam what was routed to Spam. Prints one page (--limit, ${submissionPageSize.default} by default, at most ${submissionPageSize.max}); when there are more, the next page is printed by the same command with --cursor and the cursor given.`,
  options: [
    { flags: '--form <slug>', description: 'the form\'s slug (required)' },
    { flags: '--spam', description: 'list the spam instead of the inbox' },
    { flags: '--limit <n>', description: `submissions per page, 1 to ${submissionPageSize.max} (default ${submissionPageSize.default})` },
    { flags: '--cursor <cursor>', description: 'continue after the page that gave this cursor' },
    ...projectOptions,
  ],
  examples: [
    'svc submissions list --form contact',
    'svc submissions list --form contact --spam --limit 50',
    'svc submissions list --form contact --json | jq -r .nextCursor',
  ],
  run: async (context) => (await import('./run-submissions-list.js')).runSubmissionsList(context),
});
