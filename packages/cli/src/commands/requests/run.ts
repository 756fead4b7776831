import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { cliPaths, formatDurationSeconds, requestPageSize, ServiceError } from '@svc/protocol';
import { DeleteRequestResponse, ListRequestsResponse, RequestChangeResponse, RequestResponse, RequestSettingsResponse, type RequestInfo } from '@svc/protocol/api';
import type { ContextOf } from '../../command.js';
import { printable } from '../../format/printable.js';
import { canPrompt } from '../../io.js';
import { parsePageLimit } from '../../page-limit.js';
import { Prompter } from '../../prompts.js';
import { callProject, openProject } from '../../server-call.js';
import type { requestsDelete, requestsList, requestsReopen, requestsReply, requestsResolve, requestsScreenshot, requestsSet, requestsShow } from './commands.js';
import { parseRetention } from '../../retention-flag.js';

const commentWidth = 60;

/** `svc requests list`: a table for people, the page as JSON for scripts. */
export async function list(context: ContextOf<typeof requestsList>): Promise<number> {
  const { options, out } = context;
  const limit = options.limit === undefined ? undefined : parsePageLimit(options.limit, requestPageSize.max);
  const status = (options.status ?? 'open');
  return callProject(
    context,
    ({ api, ref }) => api.get(cliPaths.requests(ref.workspace, ref.project), ListRequestsResponse, { status, environment: options.environment, limit, cursor: options.cursor }),
    (page) => {
      if (page.requests.length === 0) return options.cursor === undefined ? `No ${status === 'all' ? '' : `${status} `}requests.` : 'No more requests.';
      return out.table(page.requests, [
        { header: 'ID', value: (request) => request.id },
        { header: 'STATUS', value: (request) => request.status },
        { header: 'ENV', value: (request) => request.environment },
        { header: 'SENT', value: (request) => request.createdAt },
        { header: 'COMMENT', value: (request) => excerpt(request.comment) },
      ]);
    },
    (page) =>
      page.nextCursor !== null &&
      `More: svc requests list${options.status === undefined ? '' : ` --status ${status}`}${options.environment === undefined ? '' : ` --environment ${options.environment}`}${limit === undefined ? '' : ` --limit ${limit}`} --cursor ${page.nextCursor}`,
  );
}

export async function show(context: ContextOf<typeof requestsShow>): Promise<number> {
  return callProject(
    context,
    ({ api, ref }) => api.get(cliPaths.request(ref.workspace, ref.project, context.args.id), RequestResponse),
    ({ request }) => describeRequest(request),
  );
}

export async function reply(context: ContextOf<typeof requestsReply>): Promise<number> {
  const message = context.options.message;
  if (message === undefined || message.trim() === '') throw new ServiceError('usage', 'say what to reply with --message "…"');
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.requestReplies(ref.workspace, ref.project, context.args.id), { message }, RequestResponse),
    ({ request }) => `Replied to ${request.id}; the reporter sees it in the widget. The thread has ${request.replies.length} ${request.replies.length === 1 ? 'reply' : 'replies'}.`,
  );
}

export async function resolveRequest(context: ContextOf<typeof requestsResolve>): Promise<number> {
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.resolveRequest(ref.workspace, ref.project, context.args.id), {}, RequestChangeResponse),
    (result) => (result.changed ? `Resolved ${result.request.id}.` : `${result.request.id} is already resolved: nothing changed.`),
  );
}

export async function reopen(context: ContextOf<typeof requestsReopen>): Promise<number> {
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.reopenRequest(ref.workspace, ref.project, context.args.id), {}, RequestChangeResponse),
    (result) => (result.changed ? `Reopened ${result.request.id}.` : `${result.request.id} is already open: nothing changed.`),
  );
}

/** `svc requests screenshot`: the PNG streamed to a file; an existing one only with --force. */
export async function screenshot(context: ContextOf<typeof requestsScreenshot>): Promise<number> {
  const { options, io, out } = context;
  const { api, ref } = await openProject(context);
  const id = context.args.id;
  const response = await api.stream(cliPaths.requestScreenshot(ref.workspace, ref.project, id));
  const path = resolve(io.cwd, options.output ?? `${id.replace(/[^\w.-]/g, '_')}.png`);
  const target = createWriteStream(path, { flags: options.force ? 'w' : 'wx', mode: 0o600 });
  const opened = await new Promise<NodeJS.ErrnoException | null>((settle) => {
    target.once('open', () => settle(null));
    target.once('error', (error: NodeJS.ErrnoException) => settle(error));
  });
  if (opened?.code === 'EEXIST') throw new ServiceError('file_exists', `${path} exists; pass --force to overwrite it`);
  if (opened) throw new ServiceError('file_unreadable', `cannot write ${path}: ${opened.message}`);
  let size = 0;
  try {
    if (!response.body) throw new Error('the answer has no body');
    const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    body.on('data', (chunk: Buffer) => (size += chunk.byteLength));
    await pipeline(body, target);
  } catch (error) {
    target.destroy();
    await rm(path, { force: true });
    throw error;
  }
  out.result({ ok: true, request: id, path, size }, () => `Wrote the screenshot of ${id} to ${printable(path)} (${size} bytes).`);
  return 0;
}

/** `svc requests delete`: asks first on a terminal. */
export async function remove(context: ContextOf<typeof requestsDelete>): Promise<number> {
  const { options, io } = context;
  if (canPrompt(io, options.yes || options.json)) {
    const sure = await new Prompter(io).confirm(`Delete request ${context.args.id} with its replies and screenshot? This cannot be undone.`);
    if (!sure) throw new ServiceError('cancelled', 'cancelled; nothing was deleted');
  }
  return callProject(
    context,
    ({ api, ref }) => api.delete(cliPaths.request(ref.workspace, ref.project, context.args.id), DeleteRequestResponse),
    ({ deleted }) => `Deleted request ${deleted.id}, with its replies, its screenshot and every copy its events kept.`,
  );
}

/** `svc requests set`: prints the settings, or changes those given. */
export async function set(context: ContextOf<typeof requestsSet>): Promise<number> {
  const { options } = context;
  const retention = options.retention === undefined ? undefined : parseRetention(options.retention);
  return callProject(
    context,
    ({ api, ref }) =>
      retention === undefined
        ? api.get(cliPaths.requestSettings(ref.workspace, ref.project), RequestSettingsResponse)
        : api.patch(cliPaths.requestSettings(ref.workspace, ref.project), { retentionSeconds: retention }, RequestSettingsResponse),
    (result) => {
      const kept = result.settings.retentionSeconds === null ? 'kept until deleted' : `removed ${formatDurationSeconds(result.settings.retentionSeconds)} after they arrive`;
      const lead = retention === undefined ? '' : result.changed ? 'Updated the requests inbox.\n' : 'Unchanged.\n';
      return `${lead}retention: requests are ${kept}`;
    },
  );
}

function describeRequest(request: RequestInfo): string {
  const lines = [`${request.id} (${request.status}) from ${request.environment}, sent ${request.createdAt}`, ''];
  lines.push(`Page:     ${printable(request.url)}`);
  const box = request.elementBox;
  if (request.selector !== null) lines.push(`Element:  ${printable(request.selector)}${box === null ? '' : ` (at ${box.x},${box.y}, ${box.width}×${box.height} px of the screenshot)`}`);
  const reporter = [request.name, request.email === null ? null : `<${request.email}>`].filter((part) => part !== null).join(' ');
  if (reporter !== '') lines.push(`From:     ${printable(reporter)}`);
  if (request.viewport !== null) lines.push(`Viewport: ${request.viewport}`);
  lines.push(
    request.screenshot === null
      ? `Screenshot: none${request.screenshotError === null ? '' : ` (${printable(request.screenshotError)})`}`
      : `Screenshot: ${request.screenshot.size} bytes (svc requests screenshot ${request.id})`,
  );
  lines.push('', 'Comment:', ...printable(request.comment).split('\n').map((line) => `  ${line}`));
  if (request.replies.length > 0) {
    lines.push('', 'Replies:');
    for (const item of request.replies) lines.push(`  ${item.createdAt} ${printable(item.author)}: ${printable(item.message)}`);
  }
  return lines.join('\n');
}

function excerpt(text: string): string {
  const line = printable(text).replace(/\s+/g, ' ');
  return line.length > commentWidth ? `${line.slice(0, commentWidth - 1)}…` : line;
}
