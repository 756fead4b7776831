import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { sha256Pattern, type ByteRange, type FileStore, type StagedFile } from './file-store.js';
import { HeldBytes, HeldFileRows, holdOrSpool, wholeContentStream, type HoldOptions } from './held-files.js';
import { prepareSpool, spoolToFile } from './spool.js';

/**
 * Files of the embedded backend. Small files held while a submission is read are rows of
 * the SQLite file's `file_blobs`, committed with their submission (held-files.ts); the
 * others live on local disk under `<data dir>/files/<2 hex>/<sha256>`: staged in
 * `files/.staging`, fsync'd, then renamed into place and the directory fsync'd.
 */
export class DiskFileStore implements FileStore {
  private readonly root: string;
  /** Where uploads are written while they arrive. */
  readonly staging: string;
  private readonly rows: HeldFileRows;
  private readonly budget = new HeldBytes();

  constructor(dataDir: string, db: Kysely<Database>) {
    this.root = join(dataDir, 'files');
    this.staging = join(this.root, '.staging');
    this.rows = new HeldFileRows(db);
  }

  init(): Promise<void> {
    return prepareSpool(this.staging);
  }

  stage(content: AsyncIterable<Uint8Array>, options?: HoldOptions): Promise<StagedFile> {
    if (!options || options.holdUpTo <= 0) return this.stageOnDisk(content);
    return holdOrSpool(content, options, this.budget, (rest) => this.stageOnDisk(rest), (file) => this.rows.insert(file));
  }

  private async stageOnDisk(content: AsyncIterable<Uint8Array>): Promise<StagedFile> {
    const { path, sha256, size } = await spoolToFile(this.staging, content, { sync: true });
    const directory = join(this.root, sha256.slice(0, 2));
    const target = join(directory, sha256);
    return {
      sha256,
      size,
      commit: async () => {
        await mkdir(directory, { recursive: true, mode: 0o700 });
        const existing = await stat(target).catch(() => null);
        if (existing?.size === size) {
          await rm(path, { force: true });
          return;
        }
        await rename(path, target);
        await syncDirectory(directory);
      },
      discard: () => rm(path, { force: true }),
    };
  }

  async open(sha256: string, range?: ByteRange): Promise<Readable | null> {
    if (!sha256Pattern.test(sha256)) return null;
    const path = join(this.root, sha256.slice(0, 2), sha256);
    const exists = await stat(path).catch(() => null);
    if (exists) return createReadStream(path, range ? { start: range.start, end: range.end } : {});
    const row = await this.rows.find(sha256);
    return row?.content ? wholeContentStream(row.content, range) : null;
  }

  async has(sha256s: readonly string[]): Promise<Set<string>> {
    const wanted = [...new Set(sha256s)].filter((sha256) => sha256Pattern.test(sha256));
    const present = await this.rows.present(wanted);
    for (const sha256 of wanted) {
      if (present.has(sha256)) continue;
      if (await stat(join(this.root, sha256.slice(0, 2), sha256)).catch(() => null)) present.add(sha256);
    }
    return present;
  }

  async remove(sha256: string): Promise<void> {
    if (!sha256Pattern.test(sha256)) return;
    await this.rows.remove(sha256);
    const directory = join(this.root, sha256.slice(0, 2));
    await rm(join(directory, sha256), { force: true });
    await syncDirectory(directory).catch(() => undefined);
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
