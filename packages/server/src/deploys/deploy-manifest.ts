import { ServiceError } from '@svc/protocol';
import type { DeployFileEntry } from '@svc/protocol/api';
import { formatBytes } from '../lib/format-bytes.js';
import { workspaceContents } from '../store/queries/contents.js';
import type { Store } from '../store/store.js';
import type { DeployLimits } from './deploy-limits.js';
import { deployPathProblem } from './deploy-paths.js';

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
export async function contentsToUpload(store: Pick<Store, 'db' | 'files'>, workspaceId: string, files: readonly DeployFileEntry[]): Promise<string[]> {
  const hashes = [...new Set(files.map((file) => file.sha256))];
  const sizes = await store.files.sizes([...(await workspaceContents(store.db, workspaceId, hashes))]);
  for (const file of files) {
    const stored = sizes.get(file.sha256);
    if (stored !== undefined && stored !== file.size) throw invalidFile(file.path, `is declared as ${file.size} bytes, but its contents (sha256 ${file.sha256}) are ${stored} bytes`);
  }
  return hashes.filter((sha256) => !sizes.has(sha256));
}

function invalidFile(path: string, problem: string): ServiceError {
  return new ServiceError('validation_failed', `${JSON.stringify(path)} ${problem}`, { errors: { [path]: problem } });
}
