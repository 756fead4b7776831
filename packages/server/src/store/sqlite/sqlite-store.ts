import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { sqliteCapabilities } from '../capabilities.js';
import { DiskFileStore } from '../files/disk-file-store.js';
import { WakeUps } from '../listeners.js';
import { ledgerTable, loadMigrations, pendingMigrations, type AppliedMigration } from '../migrations.js';
import type { Database } from '../schema.js';
import type { Db, Store, StoreOptions } from '../store.js';

export const sqliteFileName = 'svc.sqlite';

/**
 * The embedded backend: one SQLite file in WAL mode with `synchronous=FULL`, so every
 * commit is fsync'd before it returns. One connection per process; the query builder
 * serialises its use.
 */
export async function openSqliteStore(options: StoreOptions): Promise<Store> {
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const database = new SqliteDatabase(join(options.dataDir, sqliteFileName));
  try {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    await migrate(database);
  } catch (error) {
    database.close();
    throw error;
  }

  const db: Db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  const files = new DiskFileStore(options.dataDir);
  await files.init();
  const wakeUps = new WakeUps((error) => options.onBackgroundError?.(error, 'event listener'));

  return {
    db,
    capabilities: sqliteCapabilities,
    files,
    // BEGIN IMMEDIATE takes the write lock up front, so a transaction never fails half-way
    // when another process (a `--role worker`, say) holds the database.
    transaction: (work) =>
      db.connection().execute(async (connection) => {
        await sql`begin immediate`.execute(connection);
        try {
          const result = await work(connection);
          await sql`commit`.execute(connection);
          return result;
        } catch (error) {
          if (database.inTransaction) await sql`rollback`.execute(connection);
          throw error;
        }
      }),
    announceEvents: () => wakeUps.fire(),
    onEvents: (listener) => wakeUps.add(listener),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

async function migrate(database: SqliteDatabase.Database): Promise<void> {
  const migrations = await loadMigrations('sqlite');
  database.exec(`CREATE TABLE IF NOT EXISTS ${ledgerTable} (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  const apply = database.transaction(() => {
    const applied = database.prepare(`SELECT version, name, checksum FROM ${ledgerTable} ORDER BY version`).all() as AppliedMigration[];
    const record = database.prepare(`INSERT INTO ${ledgerTable} (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)`);
    for (const migration of pendingMigrations(migrations, applied)) {
      database.exec(migration.sql);
      record.run(migration.version, migration.name, migration.checksum, Date.now());
    }
  });
  apply.immediate();
}
