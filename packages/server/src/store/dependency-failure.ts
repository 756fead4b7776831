import { isAbsolute, relative } from 'node:path';

/** What the service depends on to store a submission: the database, and the disk under the data dir. */
export type StoreDependency = 'database' | 'storage';

/** A failure that is not the request's fault nor a bug: a dependency could not do its part. */
export interface DependencyFailure {
  readonly dependency: StoreDependency;
  /** One line for the log, e.g. `the disk is full (ENOSPC)`. */
  readonly reason: string;
}

/** The code of the error thrown before a commit into a database file deleted or replaced while open (sqlite/file-identity.js). */
export const storeGoneCode = 'SVC_STORE_GONE';

const diskErrnos: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EIO: 'an I/O error',
  EROFS: 'the file system is read-only',
};
/** Errors that mean the disk is in trouble only when they concern the data dir. */
const pathErrnos: Record<string, string> = {
  ENOENT: 'the data directory is gone',
  ENOTDIR: 'the data directory is gone',
  ESTALE: 'the data directory is gone',
  EACCES: 'the data directory is not writable',
  EPERM: 'the data directory is not writable',
};

/**
 * A file-system failure of the storage under `dataDir` (a full disk, I/O errors, the
 * directory deleted), or null for anything else. Follows `cause` a few levels, since
 * streams and drivers wrap what the file system said.
 */
export function storageFailure(error: unknown, dataDir: string): DependencyFailure | null {
  for (const failure of causes(error)) {
    const { code, path } = failure as { code?: unknown; path?: unknown };
    if (code === storeGoneCode) return { dependency: 'storage', reason: 'the database file was deleted or replaced (the data directory is gone?)' };
    if (typeof code !== 'string') continue;
    const disk = diskErrnos[code];
    if (disk) return { dependency: 'storage', reason: `${disk} (${code})` };
    const onPath = pathErrnos[code];
    if (onPath && typeof path === 'string' && isInside(path, dataDir)) return { dependency: 'storage', reason: `${onPath} (${code} on ${path})` };
  }
  return null;
}

/** The error and the errors it names as its cause, nearest first. */
export function* causes(error: unknown): Generator<object> {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

function isInside(path: string, directory: string): boolean {
  const rest = relative(directory, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
}
