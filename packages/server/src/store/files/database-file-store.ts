import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { sha256Pattern, type FileStore, type StagedFile } from './file-store.js';

/** Files in PostgreSQL (`file_blobs`), so that every instance can read every file. */
export class DatabaseFileStore implements FileStore {
  constructor(private readonly db: Kysely<Database>) {}

  async stage(content: AsyncIterable<Uint8Array>): Promise<StagedFile> {
    const hash = createHash('sha256');
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of content) {
      hash.update(chunk);
      chunks.push(chunk);
      size += chunk.byteLength;
    }
    const sha256 = hash.digest('hex');
    let buffer: Buffer | null = Buffer.concat(chunks, size);
    return {
      sha256,
      size,
      commit: async () => {
        if (!buffer) return;
        await this.db
          .insertInto('file_blobs')
          .values({ sha256, size, content: buffer, created_at: Date.now() })
          .onConflict((conflict) => conflict.column('sha256').doNothing())
          .execute();
        buffer = null;
      },
      discard: () => {
        buffer = null;
        return Promise.resolve();
      },
    };
  }

  async open(sha256: string): Promise<Readable | null> {
    if (!sha256Pattern.test(sha256)) return null;
    const row = await this.db.selectFrom('file_blobs').select('content').where('sha256', '=', sha256).executeTakeFirst();
    return row ? Readable.from([Buffer.from(row.content)]) : null;
  }

  async remove(sha256: string): Promise<void> {
    await this.db.deleteFrom('file_blobs').where('sha256', '=', sha256).execute();
  }
}
