import type { Readable } from 'node:stream';
import { ServiceError } from '@svc/protocol';
import type { DeployFileEntry } from '@svc/protocol/api';
import { formatBytes } from '../lib/format-bytes.js';
import { addWorkspaceContent, workspaceContents } from '../store/queries/contents.js';
import { declaredContentSize, touchDeploy } from '../store/queries/deploys.js';
import type { DeployLimits } from '../hosting/deploy-limits.js';
import type { OperationContext, Principal } from './context.js';
import { deployPathProblem } from './deploy-paths.js';
import type { ProjectInput } from './project-config.js';
import { deployInScope } from './scope.js';

/**
 * What a deploy declares is checked (docs/hosting.md, "What a deploy declares"): its paths,
 * its sizes against the limits, one size per content; the contents its workspace already
 * uploaded against what is stored; each upload's bytes against its declared size. So a
 * deploy's sizes are real bytes, and the limits count real bytes.
 */

/** Checks a deploy's file list before anything is recorded; returns its bytes in all. */
export function checkManifest(limits: DeployLimits, files: readonly DeployFileEntry[]): number {
  if (files.length > limits.files) throw new ServiceError('payload_too_large', `a deploy holds at most ${limits.files} files; this one has ${files.length}`);
  const seen = new Set<string>();
  const sizeOf = new Map<string, DeployFileEntry>();
  let bytes = 0;
  for (const file of files) {
    const problem = deployPathProblem(file.path);
    if (problem !== null) throw invalidFile(file.path, problem);
    if (seen.has(file.path)) throw invalidFile(file.path, 'is listed twice');
    seen.add(file.path);
    if (file.size > limits.fileBytes) throw new ServiceError('payload_too_large', `${file.path} is ${formatBytes(file.size)}; a file of a deploy is at most ${formatBytes(limits.fileBytes)}`);
    const same = sizeOf.get(file.sha256);
    if (same !== undefined && same.size !== file.size) throw invalidFile(file.path, `has the contents of ${same.path} (${same.size} bytes) but is declared as ${file.size} bytes`);
    sizeOf.set(file.sha256, file);
    bytes += file.size;
  }
  if (bytes > limits.bytes) throw new ServiceError('payload_too_large', `the deploy is ${formatBytes(bytes)}; a deploy is at most ${formatBytes(limits.bytes)}`);
  return bytes;
}

/**
 * The contents of `files` the workspace must upload: all but those it uploaded before and
 * the service still stores. Contents only another workspace holds count as missing, so the
 * answer says nothing about them. A content the workspace holds whose stored size is not
 * the declared one is refused (422).
 */
export async function contentsToUpload(context: OperationContext, workspaceId: string, files: readonly DeployFileEntry[]): Promise<string[]> {
  const hashes = [...new Set(files.map((file) => file.sha256))];
  const sizes = await context.store.files.sizes([...(await workspaceContents(context.store.db, workspaceId, hashes))]);
  for (const file of files) {
    const stored = sizes.get(file.sha256);
    if (stored !== undefined && stored !== file.size) throw invalidFile(file.path, `is declared as ${file.size} bytes, but its contents (sha256 ${file.sha256}) are ${stored} bytes`);
  }
  return hashes.filter((sha256) => !sizes.has(sha256));
}

/**
 * `PUT …/deploys/:id/files/:sha256`: one file's bytes, exactly as many as the deploy declared
 * for them and hashing to the hash they were announced with (422 otherwise, nothing kept).
 * Once stored, the workspace holds them: its later deploys may use them without uploading.
 */
export async function uploadDeployFile(
  context: OperationContext,
  principal: Principal,
  input: ProjectInput & { id: string; sha256: string; contentLength?: number | undefined },
  content: Readable,
): Promise<{ sha256: string; size: number }> {
  const { row, workspace } = await deployInScope(context.store.db, principal, input);
  if (row.state !== 'uploading') throw new ServiceError('conflict', `deploy ${row.id} is ${row.state === 'failed' ? 'failed' : 'finished'}; start a new one`);
  const declared = await declaredContentSize(context.store.db, row.id, input.sha256);
  if (declared === undefined) throw new ServiceError('not_found', `deploy ${row.id} lists no file with these contents`);
  const wrongSize = (sent: string) => new ServiceError('validation_failed', `the deploy declares ${declared} bytes for these contents; ${sent}`, { errors: { size: `must be ${declared} bytes, as declared` } });
  if (input.contentLength !== undefined && input.contentLength !== declared) throw wrongSize(`the upload is ${input.contentLength}`);
  const staged = await context.store.files.stage(atMost(content, declared, () => wrongSize('more were sent')));
  if (staged.size !== declared) {
    await staged.discard();
    throw wrongSize(`${staged.size} were sent`);
  }
  if (staged.sha256 !== input.sha256) {
    await staged.discard();
    throw new ServiceError('validation_failed', `the bytes sent hash to ${staged.sha256}, not ${input.sha256}`, { errors: { sha256: 'does not match the contents' } });
  }
  await staged.commit();
  const now = context.now();
  await addWorkspaceContent(context.store.db, workspace.id, staged.sha256, now);
  await touchDeploy(context.store.db, row.id, now);
  return { sha256: staged.sha256, size: staged.size };
}

/**
 * The request body's bytes, failing with `tooMany()` once past `max`. Left undestroyed when
 * refused part-way: the answer goes out, then the connection closes (error-replies.ts).
 */
async function* atMost(content: Readable, max: number, tooMany: () => Error): AsyncGenerator<Uint8Array> {
  let received = 0;
  for await (const chunk of content.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>) {
    received += chunk.byteLength;
    if (received > max) throw tooMany();
    yield chunk;
  }
}

function invalidFile(path: string, problem: string): ServiceError {
  return new ServiceError('validation_failed', `${JSON.stringify(path)} ${problem}`, { errors: { [path]: problem } });
}
