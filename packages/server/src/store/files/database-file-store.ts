import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { sha256Pattern, type ByteRange, type FileStore, type StagedFile } from './file-store.js';
import { HeldFiles, wholeContentStream, type HoldOptions } from './held-files.js';
import { prepareSpool, spoolToFile } from './spool.js';

/** Bytes per row of `file_chunks`, and the most one request holds in memory at once. */
export const fileChunkBytes = 256 * 1024;

/**
 * Files in PostgreSQL, so that every instance can read every file. An upload is spooled
 * to a local file while the request is read (memory stays at one chunk whatever the file's
 * size), then copied into `file_chunks` in one transaction on commit; reads stream the
 * chunks back one query at a time. Small files held while a submission is read are one row
 * of `file_blobs` with the whole content, written by the submission's own statement
 * (held-files.ts).
 */
export class DatabaseFileStore implements FileStore {
  /** Where uploads are written while they arrive. */
  readonly spool: string;
  private readonly held: HeldFiles;

  constructor(
    private readonly db: Kysely<Database>,
    dataDir: string,
  ) {
    this.spool = join(dataDir, '.spool');
    this.held = new HeldFiles(db);
  }

  init(): Promise<void> {
    return prepareSpool(this.spool);
  }

  stage(content: AsyncIterable<Uint8Array>, options?: HoldOptions): Promise<StagedFile> {
    return this.held.stage(content, options, (rest) => this.stageInChunks(rest));
  }

  private async stageInChunks(content: AsyncIterable<Uint8Array>): Promise<StagedFile> {
    // Not synced: a crash loses only requests not yet answered; the commit copies it into the database.
    const { path, sha256, size } = await spoolToFile(this.spool, content, { sync: false });
    let done = false;
    return {
      sha256,
      size,
      commit: async () => {
        if (done) return;
        await this.copyIn(path, sha256, size);
        done = true;
        await rm(path, { force: true });
      },
      discard: async () => {
        done = true;
        await rm(path, { force: true });
      },
    };
  }

  /** One transaction: the file's row, then its chunks; equal contents committed meanwhile make it a no-op. */
  private async copyIn(path: string, sha256: string, size: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('file_blobs')
        .values({ sha256, size, content: null, created_at: Date.now() })
        .onConflict((conflict) => conflict.column('sha256').doNothing())
        .returning('sha256')
        .executeTakeFirst();
      if (!inserted) return;
      const handle = await open(path, 'r');
      try {
        const buffer = Buffer.allocUnsafe(fileChunkBytes);
        for (let seq = 0; ; seq += 1) {
          const { bytesRead } = await handle.read(buffer, 0, fileChunkBytes, null);
          if (bytesRead === 0) break;
          await trx.insertInto('file_chunks').values({ sha256, seq, content: buffer.subarray(0, bytesRead) }).execute();
        }
      } finally {
        await handle.close();
      }
    });
  }

  async open(sha256: string, range?: ByteRange): Promise<Readable | null> {
    if (!sha256Pattern.test(sha256)) return null;
    const row = await this.held.find(sha256);
    if (!row) return null;
    if (row.content !== null) return wholeContentStream(row.content, range);
    const db = this.db;
    // A range reads only the chunks it covers, each cut to the range.
    const first = range ? Math.floor(range.start / fileChunkBytes) : 0;
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let seq = first; ; seq += 1) {
        const offset = seq * fileChunkBytes;
        if (range && offset > range.end) return;
        const chunk = await db.selectFrom('file_chunks').select('content').where('sha256', '=', sha256).where('seq', '=', seq).executeTakeFirst();
        if (!chunk) return;
        const content = Buffer.from(chunk.content);
        yield range ? content.subarray(Math.max(0, range.start - offset), Math.min(content.length, range.end + 1 - offset)) : content;
      }
    }
    return Readable.from(chunks());
  }

  has(sha256s: readonly string[]): Promise<Set<string>> {
    return this.held.present([...new Set(sha256s)].filter((sha256) => sha256Pattern.test(sha256)));
  }

  remove(sha256: string): Promise<void> {
    return this.held.remove(sha256);
  }
}
