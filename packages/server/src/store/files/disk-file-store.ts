import { createReadStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { sha256Pattern, type ByteRange, type FileStore, type StagedFile } from './file-store.js';
import { HeldFiles, wholeContentStream, type HoldOptions } from './held-files.js';
import { CoalescedSync } from './coalesced-sync.js';
import { prepareSpool, spoolToFile } from './spool.js';

/**
 * Files of the embedded backend. Small files held while a submission is read are rows of
 * the SQLite file's `file_blobs`, committed with their submission (held-files.ts); the
 * others live on local disk as `<data dir>/files/<sha256>`: staged in `files/.staging`,
 * fsync'd, then renamed into `files/`, whose sync concurrent commits share (one per batch
 * of them rather than one per file). Files of earlier versions, under `files/<2 hex>/`,
 * are read and removed where they are.
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
        if ((await this.locate(sha256))?.size === size) {
          await rm(path, { force: true });
          return;
        }
        await rename(path, join(this.root, sha256));
        await this.rootSync.sync();
      },
      discard: () => rm(path, { force: true }),
    };
  }

  async open(sha256: string, range?: ByteRange): Promise<Readable | null> {
    if (!sha256Pattern.test(sha256)) return null;
    const found = await this.locate(sha256);
    if (found) return createReadStream(found.path, range ? { start: range.start, end: range.end } : {});
    const row = await this.held.find(sha256);
    return row?.content ? wholeContentStream(row.content, range) : null;
  }

  async has(sha256s: readonly string[]): Promise<Set<string>> {
    const wanted = [...new Set(sha256s)].filter((sha256) => sha256Pattern.test(sha256));
    const present = await this.held.present(wanted);
    for (const sha256 of wanted) {
      if (!present.has(sha256) && (await this.locate(sha256))) present.add(sha256);
    }
    return present;
  }

  async remove(sha256: string): Promise<void> {
    if (!sha256Pattern.test(sha256)) return;
    await this.held.remove(sha256);
    const found = await this.locate(sha256);
    if (!found) return;
    await rm(found.path, { force: true });
    await (dirname(found.path) === this.root ? this.rootSync.sync() : syncDirectory(dirname(found.path))).catch(() => undefined);
  }

  /** Where the file is on disk: `files/<sha256>`, or where earlier versions put it, `files/<2 hex>/<sha256>`. */
  private async locate(sha256: string): Promise<{ path: string; size: number } | null> {
    for (const path of [join(this.root, sha256), join(this.root, sha256.slice(0, 2), sha256)]) {
      const info = await stat(path).catch(() => null);
      if (info?.isFile()) return { path, size: info.size };
    }
    return null;
  }
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
