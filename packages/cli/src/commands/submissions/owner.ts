import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { cliPaths, ServiceError } from '@svc/protocol';
import { DeleteSubmissionResponse, EraseSubmissionsResponse, MoveSubmissionResponse, SubmissionResponse } from '@svc/protocol/api';
import type { ContextOf } from '../../command.js';
import { printable } from '../../format/printable.js';
import { canPrompt } from '../../io.js';
import { Prompter } from '../../prompts.js';
import { callProject, openProject } from '../../server-call.js';
import type { submissionsDelete, submissionsDownload, submissionsErase, submissionsMove, submissionsShow } from './commands.js';

type Submission = SubmissionResponse['submission'];

/** `svc submissions show`: every field and file, with anything a submitter typed shown escaped. */
export async function show(context: ContextOf<typeof submissionsShow>): Promise<number> {
  return callProject(
    context,
    ({ api, ref }) => api.get(cliPaths.submission(ref.workspace, ref.project, context.args.id), SubmissionResponse),
    ({ submission }) => describeSubmission(submission),
  );
}

function describeSubmission(submission: Submission): string {
  const lines = [`${submission.id} in ${submission.form} (${submission.state}), received ${submission.createdAt}`];
  const fields = Object.entries(submission.fields);
  lines.push('', fields.length === 0 ? 'No fields.' : 'Fields:');
  for (const [name, value] of fields) lines.push(`  ${printable(name)}: ${printable(typeof value === 'string' ? value : JSON.stringify(value))}`);
  if (submission.files.length > 0) {
    lines.push('', 'Files (svc submissions download):');
    for (const file of submission.files) lines.push(`  ${printable(file.field)}: ${printable(file.name)} (${file.contentType}, ${byteSize(file.size)})`);
  }
  return lines.join('\n');
}

/** `svc submissions download`: each file streamed to its own new file; nothing is overwritten. */
export async function download(context: ContextOf<typeof submissionsDownload>): Promise<number> {
  const { options, io, out } = context;
  const { api, ref } = await openProject(context);
  const { submission } = await api.get(cliPaths.submission(ref.workspace, ref.project, context.args.id), SubmissionResponse);
  const chosen = submission.files.map((file, index) => ({ file, index })).filter(({ file }) => options.field === undefined || file.field === options.field);
  if (chosen.length === 0) {
    const which = options.field === undefined ? '' : ` in field "${options.field}"`;
    throw new ServiceError('not_found', `submission ${submission.id} has no files${which}`);
  }
  const directory = resolve(io.cwd, options.output ?? '.');
  await mkdir(directory, { recursive: true });
  const written: { field: string; name: string; path: string; size: number }[] = [];
  const taken = new Set<string>();
  for (const { file, index } of chosen) {
    const response = await api.stream(cliPaths.submissionFile(ref.workspace, ref.project, submission.id, index));
    const path = await writeNew(directory, safeFileName(file.name), taken, response);
    written.push({ field: file.field, name: file.name, path, size: file.size });
  }
  out.result({ ok: true, submission: submission.id, files: written }, () =>
    [`Wrote ${written.length} ${written.length === 1 ? 'file' : 'files'} of ${submission.id}:`, ...written.map((file) => `  ${printable(file.path)} (${byteSize(file.size)})`)].join('\n'),
  );
  return 0;
}

/** Writes the answer's body to a file that did not exist: `name`, else `name (2)`, `name (3)`… */
async function writeNew(directory: string, name: string, taken: Set<string>, response: Response): Promise<string> {
  const extension = extname(name);
  const stem = extension === '' ? name : name.slice(0, -extension.length);
  for (let attempt = 1; attempt < 1000; attempt += 1) {
    const candidate = attempt === 1 ? name : `${stem} (${attempt})${extension}`;
    if (taken.has(candidate)) continue;
    const path = join(directory, candidate);
    const target = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    const opened = await new Promise<NodeJS.ErrnoException | null>((settle) => {
      target.once('open', () => settle(null));
      target.once('error', (error: NodeJS.ErrnoException) => settle(error));
    });
    if (opened?.code === 'EEXIST') continue;
    if (opened) throw new ServiceError('file_unreadable', `cannot write ${path}: ${opened.message}`);
    taken.add(candidate);
    try {
      if (!response.body) throw new Error('the answer has no body');
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), target);
    } catch (error) {
      target.destroy();
      await rm(path, { force: true });
      throw error;
    }
    return path;
  }
  throw new ServiceError('file_exists', `too many files named like ${name} in ${directory}`);
}

/** A file name that stays in the directory it is written to and shows no control characters. */
export function safeFileName(name: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const cleaned = (name.split(/[/\\]/).pop() ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

export async function move(context: ContextOf<typeof submissionsMove>): Promise<number> {
  const to = context.options.to;
  if (to === undefined) throw new ServiceError('usage', 'say where with --to inbox or --to spam');
  const where = to === 'inbox' ? 'the inbox' : 'Spam';
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.moveSubmission(ref.workspace, ref.project, context.args.id), { to }, MoveSubmissionResponse),
    (result) => (result.changed ? `Moved ${result.submission.id} (form ${result.submission.form}) to ${where}.` : `${result.submission.id} is already in ${where}: nothing changed.`),
  );
}

export async function remove(context: ContextOf<typeof submissionsDelete>): Promise<number> {
  const { options, io } = context;
  if (canPrompt(io, options.yes || options.json)) {
    const sure = await new Prompter(io).confirm(`Delete submission ${context.args.id} with its files? This cannot be undone.`);
    if (!sure) throw new ServiceError('cancelled', 'cancelled; nothing was deleted');
  }
  return callProject(
    context,
    ({ api, ref }) => api.delete(cliPaths.submission(ref.workspace, ref.project, context.args.id), DeleteSubmissionResponse),
    ({ deleted }) => `Deleted submission ${deleted.id} of form ${deleted.form}, with its files and every copy its events kept.`,
  );
}

export async function erase(context: ContextOf<typeof submissionsErase>): Promise<number> {
  const { options, io } = context;
  const email = options.email?.trim() ?? '';
  if (email === '') throw new ServiceError('usage', 'name the address with --email');
  if (canPrompt(io, options.yes || options.json)) {
    const sure = await new Prompter(io).confirm(`Erase every submission and Pinpoints request that holds ${email}, with their files and screenshots? This cannot be undone.`);
    if (!sure) throw new ServiceError('cancelled', 'cancelled; nothing was erased');
  }
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.eraseSubmissions(ref.workspace, ref.project), { email }, EraseSubmissionsResponse),
    (result) => {
      const email = printable(result.email);
      if (result.erased === 0 && result.erasedRequests === 0) return `No submission or request of this project holds ${email}.`;
      const lines = [`Erased ${count(result.erased, 'submission')} and ${count(result.erasedRequests, 'request')} holding ${email}.`];
      if (result.erased > 0) lines.push(`Submissions: ${result.submissions.map((item) => item.id).join(', ')}.`);
      if (result.erasedRequests > 0) lines.push(`Requests: ${result.requests.map((item) => item.id).join(', ')}.`);
      return lines.join('\n');
    },
  );
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
