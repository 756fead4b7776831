import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { ByteBudget } from '../../lib/byte-budget.js';
import type { Database } from '../schema.js';
import type { ByteRange, StagedFile, StoredContent } from './file-store.js';

/**
 * A small file held in memory while its request is read, whose whole content becomes one
 * row of `file_blobs`: committed in the same transaction as the submission that carries it
 * (Store.commitSubmissions), so a batch of submissions with their files costs one sync
 * (docs/server.md, "Files").
 */
export interface HeldFile {
  readonly sha256: string;
  readonly size: number;
  readonly content: Uint8Array;
}

/** Bytes held by all requests of a process at once; past it, files are spooled to disk. */
export const heldBytesInAll = 32 * 1024 * 1024;

/** The memory budget of held files, shared by every request of a file store. */
export class HeldBytes extends ByteBudget {
  constructor(max: number = heldBytesInAll) {
    super(max);
  }
}

export interface HoldOptions {
  /** Files of at most this many bytes are held in memory and committed with their row; 0: never. */
  readonly holdUpTo: number;
}

/**
 * Reads `content` into memory while it stays within `holdUpTo` and the budget allows, and
 * makes a held file of it; a file that grows past either is handed, the bytes read so far
 * first, to `spool` (the store's own durable path).
 */
export async function holdOrSpool(
  content: AsyncIterable<Uint8Array>,
  options: HoldOptions,
  budget: HeldBytes,
  spool: (content: AsyncIterable<Uint8Array>) => Promise<StagedFile>,
  commitAlone: (file: HeldFile) => Promise<void>,
): Promise<StagedFile> {
  const iterator = content[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let reserved = 0;
  let held = false;
  try {
    for (;;) {
      const step = await iterator.next();
      if (step.done) break;
      const chunk = step.value;
      size += chunk.byteLength;
      if (size > options.holdUpTo || !budget.take(chunk.byteLength)) {
        return await spool(replay([...chunks, chunk], iterator));
      }
      reserved += chunk.byteLength;
      chunks.push(chunk);
    }
    held = true;
  } finally {
    // Spooled, or failed: the bytes read so far are on disk now, or dropped.
    if (!held) budget.give(reserved);
  }
  const bytes = Buffer.concat(chunks, size);
  return heldStagedFile({ sha256: createHash('sha256').update(bytes).digest('hex'), size, content: bytes }, budget, reserved, commitAlone);
}

async function* replay(read: readonly Uint8Array[], rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* read;
  for (let step = await rest.next(); !step.done; step = await rest.next()) yield step.value;
}

function heldStagedFile(file: HeldFile, budget: HeldBytes, reserved: number, commitAlone: (file: HeldFile) => Promise<void>): StagedFile {
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    budget.give(reserved);
  };
  return {
    sha256: file.sha256,
    size: file.size,
    held: file,
    commit: async () => {
      try {
        await commitAlone(file);
      } finally {
        release();
      }
    },
    discard: () => {
      release();
      return Promise.resolve();
    },
  };
}

/**
 * A file store's held files: the memory budget they share, and the rows of `file_blobs`
 * that hold a whole file (held files; on PostgreSQL also files stored before chunks), read
 * the same way on both backends.
 */
export class HeldFiles {
  private readonly budget = new HeldBytes();

  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Stages `content` as a held file when `options` allow and it fits (see `holdOrSpool`);
   * otherwise through `spool`, the store's own path.
   */
  stage(content: AsyncIterable<Uint8Array>, options: HoldOptions | undefined, spool: (content: AsyncIterable<Uint8Array>) => Promise<StagedFile>): Promise<StagedFile> {
    if (!options || options.holdUpTo <= 0) return spool(content);
    return holdOrSpool(content, options, this.budget, spool, (file) => this.insert(file));
  }

  /** One held file committed on its own (a file store's `commit()` outside a batch); equal contents are touched. */
  private async insert(file: HeldFile, now = Date.now()): Promise<void> {
    await this.db
      .insertInto('file_blobs')
      .values({ sha256: file.sha256, size: file.size, content: file.content, created_at: now })
      .onConflict((conflict) => conflict.column('sha256').doUpdateSet({ created_at: now }))
      .execute();
  }

  /**
   * The file's row: its size and whole content, or (PostgreSQL) null content for a file kept
   * in chunks; undefined when there is no row.
   */
  async find(sha256: string): Promise<{ size: number; content: Uint8Array | null } | undefined> {
    const row = await this.db.selectFrom('file_blobs').select(['size', 'content']).where('sha256', '=', sha256).executeTakeFirst();
    return row && { size: row.content === null ? Number(row.size) : row.content.byteLength, content: row.content };
  }

  /** The size of each of `sha256s` that has a row (any row: on PostgreSQL, chunked files too). */
  async sizes(sha256s: readonly string[]): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    for (let index = 0; index < sha256s.length; index += 500) {
      const rows = await this.db.selectFrom('file_blobs').select(['sha256', 'size']).where('sha256', 'in', sha256s.slice(index, index + 500)).execute();
      for (const row of rows) sizes.set(row.sha256, Number(row.size));
    }
    return sizes;
  }

  /** Removes the row, or only one last stored before `storedBefore`; true when one went. */
  async remove(sha256: string, storedBefore = Infinity): Promise<boolean> {
    let query = this.db.deleteFrom('file_blobs').where('sha256', '=', sha256);
    if (Number.isFinite(storedBefore)) query = query.where('created_at', '<', storedBefore);
    return Number((await query.executeTakeFirst()).numDeletedRows) > 0;
  }

  /** The hashes of rows last stored before `before`, a page at a time in hash order. */
  async *storedBefore(before: number): AsyncGenerator<string> {
    let after = '';
    for (;;) {
      const rows = await this.db.selectFrom('file_blobs').select('sha256').where('sha256', '>', after).where('created_at', '<', before).orderBy('sha256').limit(500).execute();
      for (const row of rows) yield row.sha256;
      if (rows.length < 500) return;
      after = rows[rows.length - 1]!.sha256;
    }
  }
}

/** Contents whose whole bytes are at hand (a held row) as found stored contents. */
export function wholeContent(content: Uint8Array): StoredContent {
  return { size: content.byteLength, read: (range) => wholeContentStream(content, range) };
}

/** A whole content (or the bytes of `range` in it) as a stream. */
export function wholeContentStream(content: Uint8Array, range?: ByteRange): Readable {
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  return Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]);
}
