import { randomBytes } from 'node:crypto';
import { mkdir, open, rm, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { formatBytes } from '../lib/format-bytes.js';
import { storageFailure } from './dependency-failure.js';

/** A file's identity: the same path holding another file (or none) means it was replaced. */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

export interface StorageCheckOptions {
  readonly dataDir: string;
  /** Where uploads are written: the directory whose disk must take them. */
  readonly directory: string;
  /** A file that must stay the one opened at start (SQLite's database file), if any. */
  readonly identity?: { readonly path: string; readonly expected: FileIdentity };
  /** Below this much free space the disk counts as full (`--min-free-space`). */
  readonly minFreeBytes: number;
  /** Scratch space that may simply be made again when missing (the PostgreSQL upload spool). */
  readonly recreate?: boolean;
}

const probeBytes = Buffer.alloc(4096, 0x2e);

/**
 * Whether the storage under the data dir can take a submission now: the database file is
 * still the one opened, the disk has room, and (with `write`) a small file can be written
 * and synced. Null when it can, else why not, in words for the log.
 */
export async function checkStorage(options: StorageCheckOptions, write: boolean): Promise<string | null> {
  try {
    if (options.identity) {
      const now = await stat(options.identity.path).catch(() => null);
      if (now === null) return `${options.identity.path} is gone (the data directory ${options.dataDir} was deleted?)`;
      if (now.ino !== options.identity.expected.ino || now.dev !== options.identity.expected.dev) return `${options.identity.path} was replaced by another file`;
    }
    if (options.recreate) await mkdir(options.directory, { recursive: true, mode: 0o700 });
    if (!(await stat(options.directory)).isDirectory()) return `${options.directory} is not a directory`;
    const space = await statfs(options.directory);
    const free = space.bavail * space.bsize;
    if (free < options.minFreeBytes) return `low on disk space: ${formatBytes(free)} free in ${options.directory}, at least ${formatBytes(options.minFreeBytes)} wanted (--min-free-space)`;
    if (write) await writeProbe(options.directory);
    return null;
  } catch (error) {
    return storageFailure(error, options.dataDir)?.reason ?? `the storage check failed: ${(error as Error).message}`;
  }
}

async function writeProbe(directory: string): Promise<void> {
  const path = join(directory, `.health-${randomBytes(6).toString('hex')}`);
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.write(probeBytes);
    await handle.sync();
  } finally {
    await handle.close();
    await rm(path, { force: true });
  }
}
