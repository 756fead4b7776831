import { sql } from 'kysely';
import type { Db } from '../store.js';

/**
 * The stored contents that are rows (`file_blobs`): the hash and size of each, in hash
 * order, a page at a time; `chunked` when the bytes are in `file_chunks` (PostgreSQL).
 */
export async function* heldContentSizes(db: Db, page = 1_000): AsyncGenerator<{ sha256: string; size: number; chunked: boolean }> {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('file_blobs')
      .select(['sha256', 'size', sql<number | bigint>`case when content is null then 1 else 0 end`.as('chunked')])
      .where('sha256', '>', after)
      .orderBy('sha256')
      .limit(page)
      .execute();
    for (const row of rows) yield { sha256: row.sha256, size: Number(row.size), chunked: Number(row.chunked) === 1 };
    if (rows.length < page) return;
    after = rows[rows.length - 1]!.sha256;
  }
}

/** The whole content of a row of `file_blobs`; null when it has none (chunked) or is gone. */
export async function heldContent(db: Db, sha256: string): Promise<Uint8Array | null> {
  const row = await db.selectFrom('file_blobs').select('content').where('sha256', '=', sha256).executeTakeFirst();
  return row?.content ?? null;
}

/** Whether the content is a row of `file_blobs` with its bytes. */
export async function isHeld(db: Db, sha256: string): Promise<boolean> {
  const row = await db.selectFrom('file_blobs').select('sha256').where('sha256', '=', sha256).where('content', 'is not', null).executeTakeFirst();
  return row !== undefined;
}

/** One chunk of a chunked content (PostgreSQL's `file_chunks`), or undefined past its last. */
export async function contentChunk(db: Db, sha256: string, seq: number): Promise<Uint8Array | undefined> {
  const row = await db.selectFrom('file_chunks').select('content').where('sha256', '=', sha256).where('seq', '=', seq).executeTakeFirst();
  return row?.content;
}
