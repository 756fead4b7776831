import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { sha256Pattern, type ByteRange, type FileStore, type StagedFile, type StoredContent } from './file-store.js';
import { HeldFiles, wholeContent, type HoldOptions } from './held-files.js';
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

  /**
   * One transaction: the file's row, then its chunks. Equal contents committed meanwhile (or
   * before) make it a touch of their row instead: their time moves on, for the sweep's grace.
   */
  private async copyIn(path: string, sha256: string, size: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const now = Date.now();
      const row = await trx
        .insertInto('file_blobs')
        .values({ sha256, size, content: null, created_at: now })
        .onConflict((conflict) => conflict.column('sha256').doUpdateSet({ created_at: now }))
        // xmax is 0 on a row this statement inserted, and set on one it updated.
        .returning(sql<boolean>`xmax = 0`.as('inserted'))
        .executeTakeFirstOrThrow();
      if (!row.inserted) return;
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

  async find(sha256: string): Promise<StoredContent | null> {
    if (!sha256Pattern.test(sha256)) return null;
    const row = await this.held.find(sha256);
    if (!row) return null;
    if (row.content !== null) return wholeContent(row.content);
    return { size: row.size, read: (range) => Readable.from(this.chunks(sha256, range)) };
  }

  async open(sha256: string, range?: ByteRange): Promise<Readable | null> {
    return (await this.find(sha256))?.read(range) ?? null;
  }

  /** The file's chunks in order, one query each; a range reads only the chunks it covers, each cut to the range. */
  private async *chunks(sha256: string, range: ByteRange | undefined): AsyncGenerator<Buffer> {
    const first = range ? Math.floor(range.start / fileChunkBytes) : 0;
    for (let seq = first; ; seq += 1) {
      const offset = seq * fileChunkBytes;
      if (range && offset > range.end) return;
      const chunk = await this.db.selectFrom('file_chunks').select('content').where('sha256', '=', sha256).where('seq', '=', seq).executeTakeFirst();
      if (!chunk) return;
      const content = Buffer.from(chunk.content);
      yield range ? content.subarray(Math.max(0, range.start - offset), Math.min(content.length, range.end + 1 - offset)) : content;
    }
  }

  sizes(sha256s: readonly string[]): Promise<Map<string, number>> {
    return this.held.sizes([...new Set(sha256s)].filter((sha256) => sha256Pattern.test(sha256)));
  }

  /** The row goes with its chunks (ON DELETE CASCADE), in one statement. */
  remove(sha256: string, options: { storedBefore?: number } = {}): Promise<boolean> {
    return this.held.remove(sha256, options.storedBefore);
  }

  storedBefore(before: number): AsyncIterable<string> {
    return this.held.storedBefore(before);
  }
}
