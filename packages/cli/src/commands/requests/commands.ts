import { requestPageSize } from '@svc/protocol';
import { defineGroup, handlersIn } from '../../command.js';
import { environmentFlag, idArgument, pageFlags, projectCommand, yesFlag } from '../../common-options.js';

const run = handlersIn(() => import('./run.js'));

export const requestsList = projectCommand('list', run('list'), {
  summary: 'list the requests visitors sent through the Pinpoints widget, newest first',
  description: `List the project's requests (docs/pinpoints.md), newest first: the open ones, or with --status the resolved ones, all of the inbox, or what the honeypot caught (spam). Prints one page (--limit, ${requestPageSize.default} by default, at most ${requestPageSize.max}); when there are more, the same command with --cursor prints the next.`,
  flags: {
    status: { flag: '--status <status>', description: 'open (default), resolved, all or spam', choices: ['open', 'resolved', 'all', 'spam'] },
    environment: environmentFlag('--environment <env>', 'only requests sent from this environment'),
    ...pageFlags('requests', requestPageSize),
  },
  examples: ['svc requests list', 'svc requests list --status all --environment staging', 'svc requests list --json | jq -r ".requests[].comment"'],
});

const requestId = idArgument('the request\'s id (from `svc requests list`)');

export const requestsShow = projectCommand('show', run('show'), {
  summary: 'show one request: page, element, comment, reporter and the thread of replies',
  arguments: requestId,
  examples: ['svc requests show req_…', 'svc requests show req_… --json | jq .request.replies'],
});

export const requestsReply = projectCommand('reply', run('reply'), {
  summary: 'reply to a request; the reporter sees it in the widget',
  description: 'Add a reply to the request\'s thread, signed with the name of your token. The reporter sees it when they open the widget again, and the webhooks receive request.replied.',
  arguments: requestId,
  flags: { message: { flag: '-m, --message <text>', description: 'the reply (required; at most 5,000 characters)' } },
  examples: ['svc requests reply req_… --message "Fixed on staging, thanks!"'],
});

export const requestsResolve = projectCommand('resolve', run('resolveRequest'), {
  summary: 'mark a request resolved (request.resolved)',
  arguments: requestId,
  examples: ['svc requests resolve req_…'],
});

export const requestsReopen = projectCommand('reopen', run('reopen'), {
  summary: 'open a resolved request again (request.reopened)',
  arguments: requestId,
  examples: ['svc requests reopen req_…'],
});

export const requestsScreenshot = projectCommand('screenshot', run('screenshot'), {
  summary: 'save the screenshot a request came with, as a PNG',
  description: 'Write the request\'s screenshot, redacted in the visitor\'s browser before it was sent, to --output (default: <id>.png in the current directory). An existing file is not overwritten unless --force.',
  arguments: requestId,
  flags: {
    output: { flag: '-o, --output <file>', description: 'where to write the PNG (default: ./<id>.png)' },
    force: { flag: '--force', description: 'overwrite the file if it exists' },
  },
  examples: ['svc requests screenshot req_…', 'svc requests screenshot req_… --output shot.png --json'],
});

export const requestsDelete = projectCommand('delete', run('remove'), {
  summary: 'delete a request, its replies, its screenshot and every copy its events kept',
  description:
    'Delete a request for good: its comment, reporter, replies and screenshot (unless something else holds the same contents), and the copies its webhook events kept (their payloads become a tombstone, pending deliveries of them are cancelled, kept receiver answers are dropped). No event is sent. Asks first on a terminal, unless --yes. `svc submissions erase --email` deletes the requests of one person the same way.',
  arguments: requestId,
  flags: yesFlag,
  examples: ['svc requests delete req_…', 'svc requests delete req_… --yes --json'],
});

export const requestsSet = projectCommand('set', run('set'), {
  summary: "show or change the requests inbox's settings: how long requests are kept",
  description:
    "Without flags, print the settings. --retention removes the project's requests (open, resolved and spam) older than a duration (90d, 12h; at least 1m), with their replies and screenshots, in the background; `none` keeps them until deleted (the default). Spam requests go after `svc serve --retention-spam` whatever this says.",
  flags: { retention: { flag: '--retention <duration>', description: 'remove requests older than this, e.g. 90d, or none to keep them' } },
  examples: ['svc requests set', 'svc requests set --retention 180d', 'svc requests set --retention none --json'],
});

export const requestsCommand = defineGroup({
  name: 'requests',
  summary: 'the Pinpoints requests inbox: list, show, reply, resolve, reopen, screenshot, delete, set',
  commands: [requestsList, requestsShow, requestsReply, requestsResolve, requestsReopen, requestsScreenshot, requestsDelete, requestsSet],
});
