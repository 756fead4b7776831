import { mkdir, open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { sqliteCapabilities } from '../capabilities.js';
import { classifySqliteFailure, sqliteDependencyFailure } from './failures.js';
import { assertSameFile, fileIdentity } from './file-identity.js';
import { connectionPragmas } from './pragmas.js';
import { sqliteCatalog } from './sqlite-catalog.js';
import { DiskFileStore } from '../files/disk-file-store.js';
import { inProcessSignal } from '../listeners.js';
import { ledgerTable, loadMigrations, pendingMigrations, type AppliedMigration } from '../migrations.js';
import type { Database } from '../schema.js';
import { checkStorage } from '../storage-check.js';
import { defaultDatabaseTimeoutMs, defaultMinFreeBytes, type Db, type Store, type StoreOptions } from '../store.js';
import { assembleOutcomes, fold } from '../submission-batch.js';
import { LockedSqliteDialect } from './locked-dialect.js';
import { SubmissionThread } from './submission-thread.js';
import { WriteLock } from './write-lock.js';

export const sqliteFileName = 'svc.sqlite';

/**
 * The embedded backend: one SQLite file in WAL mode with `synchronous=FULL`, so every
 * commit is fsync'd before it returns. Two connections in this process: the main thread's,
 * for everything but the form endpoint's submissions, and the submission writer thread's,
 * whose group commits (and their fsync) thus never stop the event loop. A write lock keeps
 * them from meeting inside SQLite.
 */
export async function openSqliteStore(options: StoreOptions): Promise<Store> {
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const file = join(options.dataDir, sqliteFileName);
  const created = (await stat(file).catch(() => null)) === null;
  // A lock held longer than this fails the statement (SQLITE_BUSY), answered 503.
  const busyTimeoutMs = options.databaseTimeoutMs ?? defaultDatabaseTimeoutMs;
  // Created readable by its owner only, whatever the umask and whoever made the data dir;
  // SQLite gives its -wal and -shm files the database file's mode.
  await (await open(file, 'a', 0o600)).close();
  const database = new SqliteDatabase(file);
  const identity = fileIdentity(file);
  let complete: boolean;
  try {
    for (const pragma of connectionPragmas(busyTimeoutMs)) database.pragma(pragma);
    complete = await migrate(database, options.migrateUpTo);
  } catch (error) {
    database.close();
    throw error;
  }

  const lock = new WriteLock();
  const db: Db = new Kysely<Database>({ dialect: new LockedSqliteDialect(database, lock) });
  // Started after the migrations, which it relies on: a store opened at an older level (for a
  // restore, options.migrateUpTo) takes no submissions and has none.
  const submissions = complete ? new SubmissionThread(file, { busyTimeoutMs }) : null;
  const files = new DiskFileStore(options.dataDir, db);
  await files.init();
  const storage = { dataDir: options.dataDir, directory: files.staging, identity: { path: file, expected: identity }, minFreeBytes: options.minFreeBytes ?? defaultMinFreeBytes };

  const held = new Set<number>();
  return {
    db,
    capabilities: sqliteCapabilities,
    files,
    catalog: sqliteCatalog(db),
    // One process serves the data dir (docs/server.md): a lock of this process is everyone's.
    exclusive: async (key, work) => {
      if (held.has(key)) return null;
      held.add(key);
      try {
        return { value: await work() };
      } finally {
        held.delete(key);
      }
    },
    classifyFailure: classifySqliteFailure,
    dependencyFailure: (error) => sqliteDependencyFailure(error, options.dataDir),
    health: {
      database: async () => {
        await sql`select 1`.execute(db);
        return submissions?.problem ?? null;
      },
      storage: (write) => checkStorage(storage, write),
    },
    created,
    // BEGIN IMMEDIATE takes the write lock up front, so a transaction never fails half-way
    // when another process (a `--role worker`, say) holds the database.
    transaction: (work, transactionOptions) =>
      db.connection().execute(async (connection) => {
        // WAL with synchronous=NORMAL: committed, atomic, safe from a killed process, but
        // not fsync'd until the next durable commit.
        const durable = transactionOptions?.durable ?? true;
        if (!durable) await sql`pragma synchronous = normal`.execute(connection);
        try {
          // Never a commit into a file deleted with its data dir: refused, not acknowledged.
          assertSameFile(file, identity);
          await sql`begin immediate`.execute(connection);
          try {
            const result = await work(connection);
            await sql`commit`.execute(connection);
            return result;
          } catch (error) {
            if (database.inTransaction) await sql`rollback`.execute(connection);
            throw error;
          }
        } finally {
          if (!durable) await sql`pragma synchronous = full`.execute(connection);
        }
      }),
    commitSubmissions: async (items, batch) => {
      const folded = fold(items);
      const release = await lock.acquire();
      try {
        if (!submissions) throw new Error('this store was opened at an older migration level and takes no submissions');
        return assembleOutcomes(items, folded, await submissions.commit(folded.writers.map((index) => items[index]!), batch));
      } finally {
        release();
      }
    },
    // One process serves the data dir (docs/server.md), so in-process is everywhere.
    signals: {
      events: inProcessSignal((error) => options.onBackgroundError?.(error, 'event listener')),
      sites: inProcessSignal((error) => options.onBackgroundError?.(error, 'hosting listener')),
      builds: inProcessSignal((error) => options.onBackgroundError?.(error, 'build listener')),
    },
    // The deleted rows' old pages may still be frames of the WAL; a checkpoint writes the
    // zeroed pages (secure_delete) into the file and empties the WAL. Best effort: a reader
    // at that moment leaves part of it to the next checkpoint.
    scrubDeleted: async () => {
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    },
    close: async () => {
      await submissions?.close();
      await db.destroy();
    },
  };
}

/** Applies pending migrations up to `upTo`; true when every migration this svc ships is applied. */
async function migrate(database: SqliteDatabase.Database, upTo = Infinity): Promise<boolean> {
  const migrations = await loadMigrations('sqlite');
  database.exec(`CREATE TABLE IF NOT EXISTS ${ledgerTable} (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  const apply = database.transaction(() => {
    const applied = database.prepare(`SELECT version, name, checksum FROM ${ledgerTable} ORDER BY version`).all() as AppliedMigration[];
    const record = database.prepare(`INSERT INTO ${ledgerTable} (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)`);
    for (const migration of pendingMigrations(migrations, applied).filter((pending) => pending.version <= upTo)) {
      database.exec(migration.sql);
      record.run(migration.version, migration.name, migration.checksum, Date.now());
    }
  });
  apply.immediate();
  return upTo >= (migrations.at(-1)?.version ?? 0);
}
