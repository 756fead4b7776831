import { createReadStream } from 'node:fs';
import { opendir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { sha256Pattern } from '../files/file-store.js';
import { wholeContentStream } from '../files/held-files.js';
import { heldContent, heldContentSizes, isHeld } from '../queries/file-contents.js';
import type { Database } from '../schema.js';
import type { SnapshotFile, StoreSnapshot } from '../snapshot.js';
import type { Db } from '../store.js';
import { sqliteCatalog } from './sqlite-catalog.js';
import { sqliteFileName } from './sqlite-store.js';

/**
 * A read transaction on a connection of its own to the data dir's SQLite file. In WAL mode a
 * reader never waits for the server's writes nor holds them up; it sees the database as it
 * was at its first read until it ends (the WAL cannot be checkpointed past that point
 * meanwhile, so it grows while a backup runs).
 */
export async function openSqliteSnapshot(dataDir: string): Promise<StoreSnapshot> {
  const file = join(dataDir, sqliteFileName);
  if (!(await stat(file).catch(() => null))?.isFile()) throw new Error(`no store in ${dataDir}: ${sqliteFileName} is not there`);
  const database = new SqliteDatabase(file, { fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  // Integers past 2^53 exactly, as bigint.
  database.defaultSafeIntegers(true);
  const db: Db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  try {
    await sql`begin`.execute(db);
    // The first read fixes what the transaction sees.
    await sql`select count(*) from sqlite_schema`.execute(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return {
    dialect: 'sqlite',
    db,
    catalog: sqliteCatalog(db),
    files: () => snapshotFiles(db, join(dataDir, 'files')),
    close: async () => {
      if (database.inTransaction) await sql`rollback`.execute(db).catch(() => undefined);
      await db.destroy();
    },
  };
}

async function* snapshotFiles(db: Db, root: string): AsyncGenerator<SnapshotFile> {
  for await (const held of heldContentSizes(db)) {
    yield { sha256: held.sha256, size: held.size, open: async () => heldStream(await heldContent(db, held.sha256)) };
  }
  // Files on disk, listed after the snapshot began: every one its rows name was there by then.
  const directories = [root];
  for (let index = 0; index < directories.length; index++) {
    const directory = directories[index]!;
    const entries = await opendir(directory).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!entries) continue;
    for await (const entry of entries) {
      if (entry.isDirectory() && directory === root && /^[0-9a-f]{2}$/.test(entry.name)) directories.push(join(root, entry.name));
      if (!entry.isFile() || !sha256Pattern.test(entry.name) || (await isHeld(db, entry.name))) continue;
      const path = join(directory, entry.name);
      const info = await stat(path).catch(() => null);
      if (!info) continue;
      yield { sha256: entry.name, size: info.size, open: () => openIfThere(path) };
    }
  }
}

function heldStream(content: Uint8Array | null): Readable | null {
  return content === null ? null : wholeContentStream(content);
}

/** The file's bytes, or null when it was removed meanwhile (erased, swept). */
function openIfThere(path: string): Promise<Readable | null> {
  return new Promise((resolve, reject) => {
    const stream = createReadStream(path);
    stream.once('open', () => resolve(stream));
    stream.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(null) : reject(error)));
  });
}
