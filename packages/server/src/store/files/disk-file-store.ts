import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, opendir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { sha256Pattern, type ByteRange, type FileStore, type StagedFile, type StoredContent } from './file-store.js';
import { HeldFiles, wholeContent, type HoldOptions } from './held-files.js';
import { CoalescedSync } from './coalesced-sync.js';
import { prepareSpool, spoolToFile } from './spool.js';

/**
 * Files of the embedded backend. Small files held while a submission is read are rows of
 * the SQLite file's `file_blobs`, committed with their submission (held-files.ts); the
 * others live on local disk as `<data dir>/files/<sha256>`: staged in `files/.staging`,
 * fsync'd, then renamed into `files/`, whose sync concurrent commits share (one per batch
 * of them rather than one per file). Files of earlier versions, under `files/<2 hex>/`,
 * are read and removed where they are. A file's modification time is when its contents
 * were last stored (the sweep's grace, docs/privacy.md).
 */
export class DiskFileStore implements FileStore {
  private readonly root: string;
  /** Where uploads are written while they arrive. */
  readonly staging: string;
  private readonly held: HeldFiles;
  /** Files renamed into `files/` by concurrent requests share one sync of the directory. */
  private readonly rootSync: CoalescedSync;

  constructor(dataDir: string, db: Kysely<Database>) {
    this.root = join(dataDir, 'files');
    this.staging = join(this.root, '.staging');
    this.held = new HeldFiles(db);
    this.rootSync = new CoalescedSync(() => syncDirectory(this.root));
  }

  init(): Promise<void> {
    return prepareSpool(this.staging);
  }

  stage(content: AsyncIterable<Uint8Array>, options?: HoldOptions): Promise<StagedFile> {
    return this.held.stage(content, options, (rest) => this.stageOnDisk(rest));
  }

  private async stageOnDisk(content: AsyncIterable<Uint8Array>): Promise<StagedFile> {
    const { path, sha256, size } = await spoolToFile(this.staging, content, { sync: true });
    return {
      sha256,
      size,
      commit: async () => {
        // Equal contents already stored are touched instead; one the sweep took meanwhile is put back.
        const found = await this.locate(sha256);
        if (found?.size === size && (await touch(found.path))) {
          await rm(path, { force: true });
          return;
        }
        await rename(path, join(this.root, sha256));
        await this.rootSync.sync();
      },
      discard: () => rm(path, { force: true }),
    };
  }

  async find(sha256: string): Promise<StoredContent | null> {
    if (!sha256Pattern.test(sha256)) return null;
    const found = await this.locate(sha256);
    if (found) return { size: found.size, read: (range) => createReadStream(found.path, range ? { start: range.start, end: range.end } : {}) };
    const row = await this.held.find(sha256);
    return row?.content ? wholeContent(row.content) : null;
  }

  async open(sha256: string, range?: ByteRange): Promise<Readable | null> {
    return (await this.find(sha256))?.read(range) ?? null;
  }

  async sizes(sha256s: readonly string[]): Promise<Map<string, number>> {
    const wanted = [...new Set(sha256s)].filter((sha256) => sha256Pattern.test(sha256));
    const sizes = await this.held.sizes(wanted);
    for (const sha256 of wanted) {
      const found = sizes.has(sha256) ? null : await this.locate(sha256);
      if (found) sizes.set(sha256, found.size);
    }
    return sizes;
  }

  async remove(sha256: string, options: { storedBefore?: number } = {}): Promise<boolean> {
    if (!sha256Pattern.test(sha256)) return false;
    const before = options.storedBefore ?? Infinity;
    let removed = await this.held.remove(sha256, before);
    for (const path of this.paths(sha256)) if (await this.removeFile(path, before)) removed = true;
    return removed;
  }

  async *storedBefore(before: number): AsyncGenerator<string> {
    yield* this.held.storedBefore(before);
    for await (const entry of await opendir(this.root)) {
      if (entry.isFile() && sha256Pattern.test(entry.name) && (await storedAt(join(this.root, entry.name))) < before) yield entry.name;
      if (!entry.isDirectory() || !/^[0-9a-f]{2}$/.test(entry.name)) continue;
      for await (const old of await opendir(join(this.root, entry.name))) {
        if (old.isFile() && sha256Pattern.test(old.name) && (await storedAt(join(this.root, entry.name, old.name))) < before) yield old.name;
      }
    }
  }

  /**
   * Removes the file, or only one last stored before `before`: moved aside first and looked
   * at again there, so that a commit of equal contents that touched it in between (and will
   * not store it again) gets it back.
   */
  private async removeFile(path: string, before: number): Promise<boolean> {
    if ((await storedAt(path)) >= before) return false;
    if (before === Infinity) {
      await rm(path, { force: true });
    } else {
      const aside = join(this.staging, `removed-${randomBytes(8).toString('hex')}`);
      if (!(await rename(path, aside).then(() => true, ignoreMissing))) return false;
      if ((await storedAt(aside)) >= before) {
        await rename(aside, path);
        return false;
      }
      await rm(aside, { force: true });
    }
    await (dirname(path) === this.root ? this.rootSync.sync() : syncDirectory(dirname(path))).catch(() => undefined);
    return true;
  }

  /** Where the file is on disk: `files/<sha256>`, or where earlier versions put it, `files/<2 hex>/<sha256>`. */
  private async locate(sha256: string): Promise<{ path: string; size: number } | null> {
    for (const path of this.paths(sha256)) {
      const info = await stat(path).catch(() => null);
      if (info?.isFile()) return { path, size: info.size };
    }
    return null;
  }

  private paths(sha256: string): string[] {
    return [join(this.root, sha256), join(this.root, sha256.slice(0, 2), sha256)];
  }
}

/** When the file's contents were last stored (its modification time); Infinity when it is not there. */
async function storedAt(path: string): Promise<number> {
  const info = await stat(path).catch(() => null);
  return info?.isFile() ? info.mtimeMs : Infinity;
}

/** Marks the file's contents as stored now; false when it is gone. */
async function touch(path: string): Promise<boolean> {
  const now = new Date();
  return utimes(path, now, now).then(() => true, ignoreMissing);
}

function ignoreMissing(error: unknown): false {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
  throw error;
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
