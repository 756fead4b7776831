import type { ApiClient } from './api/api-client.js';
import { connect } from './credentials/connect.js';
import type { Io } from './io.js';
import type { Output } from './output.js';
import { resolveProject, type ProjectFlags, type ProjectRef } from './project/project-ref.js';

interface CallContext {
  readonly io: Io;
  readonly out: Output;
}

export interface ProjectSession {
  readonly api: ApiClient;
  readonly ref: ProjectRef;
}

/**
 * The project a command acts on and a client for the server, in that order: a directory
 * that names no project fails before anything is sent.
 */
export async function openProject(context: { readonly io: Io; readonly options: ProjectFlags }): Promise<ProjectSession> {
  const ref = await resolveProject(context.io, context.options);
  return { ref, api: await connect(context.io) };
}

/**
 * What most commands are: resolve the project, connect, make one call, print its answer
 * (the answer itself with --json, else `text`, then `note` on stderr when it has one).
 */
export async function callProject<T>(
  context: CallContext & { readonly options: ProjectFlags },
  call: (session: ProjectSession) => Promise<T>,
  text: (result: T, session: ProjectSession) => string,
  note?: (result: T) => string | false,
): Promise<number> {
  const session = await openProject(context);
  const result = await call(session);
  print(context.out, result, () => text(result, session), note);
  return 0;
}

/** The same for commands that act on the server rather than on a project (tokens, sign-in links). */
export async function callServer<T>(
  context: CallContext,
  call: (api: ApiClient) => Promise<T>,
  text: (result: T) => string,
  note?: (result: T) => string | false,
): Promise<number> {
  const result = await call(await connect(context.io));
  print(context.out, result, () => text(result), note);
  return 0;
}

function print<T>(out: Output, result: T, text: () => string, note: ((result: T) => string | false) | undefined): void {
  out.result(result, text);
  const extra = out.json || note === undefined ? false : note(result);
  if (extra !== false) out.note(extra);
}
