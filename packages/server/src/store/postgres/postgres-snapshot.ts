import { Readable } from 'node:stream';
import pg from 'pg';
import { Kysely, PostgresDialect, type PostgresPool } from 'kysely';
import { wholeContentStream } from '../files/held-files.js';
import { contentChunk, heldContent, heldContentSizes } from '../queries/file-contents.js';
import type { Database } from '../schema.js';
import type { SnapshotFile, StoreSnapshot } from '../snapshot.js';
import type { Db } from '../store.js';
import { postgresCatalog } from './postgres-catalog.js';

const int8 = 20;
const defaultParser = pg.types.getTypeParser.bind(pg.types) as (oid: number, format?: 'text' | 'binary') => (value: string) => unknown;

/**
 * One `REPEATABLE READ READ ONLY` transaction on a connection of its own, as pg_dump takes:
 * every table and every file's chunks are read as they were when it began, while the
 * servers go on writing. No statement timeout: a large table is read in many short queries,
 * but the transaction itself lasts as long as the backup.
 */
export async function openPostgresSnapshot(databaseUrl: string): Promise<StoreSnapshot> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: 'svc-backup',
    // BIGINT exactly, as bigint: nothing past 2^53 is rounded on its way into the archive.
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === int8 ? (value: string) => BigInt(value) : defaultParser(oid, format))) as pg.CustomTypesConfig['getTypeParser'] },
  });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query('SET LOCAL idle_in_transaction_session_timeout = 0');
    // The first query fixes what the transaction sees.
    await client.query('SELECT 1');
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  const db: Db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: oneConnection(client) }) });
  return {
    dialect: 'postgres',
    db,
    catalog: postgresCatalog(db),
    files: () => snapshotFiles(db),
    close: async () => {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

/** Kysely's pool, handing out the one connection whose transaction is the snapshot. */
function oneConnection(client: pg.Client): PostgresPool {
  return {
    connect: () => Promise.resolve({ query: client.query.bind(client), release: () => undefined }),
    end: () => Promise.resolve(),
  };
}

async function* snapshotFiles(db: Db): AsyncGenerator<SnapshotFile> {
  for await (const file of heldContentSizes(db)) {
    yield {
      sha256: file.sha256,
      size: file.size,
      open: async () => {
        if (!file.chunked) {
          const content = await heldContent(db, file.sha256);
          return content === null ? null : wholeContentStream(content);
        }
        return Readable.from(chunks(db, file.sha256));
      },
    };
  }
}

/** The chunks of a file in order, one query each: memory stays at one chunk. */
async function* chunks(db: Db, sha256: string): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const chunk = await contentChunk(db, sha256, seq);
    if (chunk === undefined) return;
    yield Buffer.from(chunk);
  }
}
