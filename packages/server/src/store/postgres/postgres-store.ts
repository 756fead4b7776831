import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { postgresCapabilities } from '../capabilities.js';
import { classifyPostgresFailure, postgresDependencyFailure } from './failures.js';
import { DatabaseFileStore } from '../files/database-file-store.js';
import { WakeUps } from '../listeners.js';
import { ledgerTable, loadMigrations, pendingMigrations, type AppliedMigration } from '../migrations.js';
import type { Database } from '../schema.js';
import { checkStorage } from '../storage-check.js';
import { defaultDatabaseTimeoutMs, defaultMinFreeBytes, type Db, type Store, type StoreOptions, type StoreSignal } from '../store.js';
import { Listener } from './listener.js';
import { postgresCatalog } from './postgres-catalog.js';
import { guardPoolClients } from './pool-guards.js';
import { commitSubmissionBatchInOneStatement } from './submission-batch.js';

/** The channel on which instances tell each other that the outbox has new events. */
export const eventsChannel = 'svc_events';
/** The channel on which instances tell each other that what a hostname serves changed. */
export const sitesChannel = 'svc_sites';
/** The channel on which instances tell each other that a build was queued. */
export const buildsChannel = 'svc_builds';
const int8 = 20;
const migrationLockKey = 0x5f5c_0001;
const defaultParser = pg.types.getTypeParser.bind(pg.types) as (oid: number, format?: 'text' | 'binary') => (value: string) => unknown;

/**
 * The scale-out backend: PostgreSQL through `pg`, commits with `synchronous_commit=on`,
 * wake-ups across instances with LISTEN/NOTIFY.
 */
export async function openPostgresStore(options: StoreOptions & { databaseUrl: string; poolSize?: number }): Promise<Store> {
  // Migrations first, on a connection of their own: they may take longer than any statement may.
  const created = await migrate(options.databaseUrl, options.migrateUpTo);
  const timeoutMs = options.databaseTimeoutMs ?? defaultDatabaseTimeoutMs;
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    application_name: 'svc',
    options: '-c synchronous_commit=on',
    // Bounded waits (docs/server.md, "When a dependency fails"): for a connection, for a
    // statement (the server cancels it), and for any answer at all (a server that froze).
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs + 1_000,
    keepAlive: true,
    // Epoch milliseconds and counts are BIGINT; they fit a double exactly.
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === int8 ? Number : defaultParser(oid, format))) as pg.CustomTypesConfig['getTypeParser'] },
  });
  pool.on('error', (error) => options.onBackgroundError?.(error, 'idle database connection'));
  guardPoolClients(pool, (error) => options.onBackgroundError?.(error, 'database connection'));

  const db: Db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const wakeUps = new WakeUps((error) => options.onBackgroundError?.(error, 'event listener'));
  const siteChanges = new WakeUps((error) => options.onBackgroundError?.(error, 'hosting listener'));
  const queuedBuilds = new WakeUps((error) => options.onBackgroundError?.(error, 'build listener'));
  const listener = new Listener(options.databaseUrl, { [eventsChannel]: () => wakeUps.fire(), [sitesChannel]: () => siteChanges.fire(), [buildsChannel]: () => queuedBuilds.fire() }, (error) =>
    options.onBackgroundError?.(error, 'LISTEN connection'),
  );
  const notifyEvents = foldedNotify(pool, eventsChannel, (error) => options.onBackgroundError?.(error, 'NOTIFY'));
  const notifySites = foldedNotify(pool, sitesChannel, (error) => options.onBackgroundError?.(error, 'NOTIFY'));
  const notifyBuilds = foldedNotify(pool, buildsChannel, (error) => options.onBackgroundError?.(error, 'NOTIFY'));

  const files = new DatabaseFileStore(db, options.dataDir);
  await files.init();
  const databasePort = Number(new URL(options.databaseUrl).port || 5432);
  const storage = { dataDir: options.dataDir, directory: files.spool, minFreeBytes: options.minFreeBytes ?? defaultMinFreeBytes, recreate: true };
  return {
    db,
    capabilities: postgresCapabilities,
    classifyFailure: classifyPostgresFailure,
    dependencyFailure: (error) => postgresDependencyFailure(error, options.dataDir, databasePort),
    health: {
      // A standby (after a failover, the old primary) answers but cannot store anything.
      database: async () => {
        const { rows } = await sql<{ standby: boolean }>`select pg_is_in_recovery() as standby`.execute(db);
        return rows[0]?.standby ? 'the database server is a read-only standby' : null;
      },
      // The upload spool is scratch space: made again if the data dir was deleted.
      storage: (write) => checkStorage(storage, write),
    },
    created,
    files,
    catalog: postgresCatalog(db),
    exclusive: async (key, work) => {
      // A session lock on a connection of its own, held while `work` runs (which may use the pool).
      // A connection whose unlock failed is closed rather than pooled: closing it ends the lock.
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [key]);
        if (!rows[0]?.locked) return null;
        try {
          return { value: await work() };
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [key]).catch((error: unknown) => void (broken = error as Error));
        }
      } catch (error) {
        broken ??= error as Error;
        throw error;
      } finally {
        client.release(broken);
      }
    },
    transaction: (work, transactionOptions) =>
      db.transaction().execute(async (trx) => {
        // Committed and visible at once, but not waited for on disk (PostgreSQL's asynchronous commit).
        if (transactionOptions?.durable === false) await sql`set local synchronous_commit = off`.execute(trx);
        return work(trx);
      }),
    commitSubmissions: (items, batch) => commitSubmissionBatchInOneStatement(db, items, batch),
    signals: { events: notifiedSignal(wakeUps, notifyEvents, listener), sites: notifiedSignal(siteChanges, notifySites, listener), builds: notifiedSignal(queuedBuilds, notifyBuilds, listener) },
    // Deleted tuples are unreachable at once and reclaimed by autovacuum.
    scrubDeleted: () => Promise.resolve(),
    close: async () => {
      await listener.stop();
      await Promise.all([notifyEvents.settled(), notifySites.settled(), notifyBuilds.settled()]);
      await db.destroy();
    },
  };
}

/** Applies pending migrations; true when the database had none applied (a new, empty store). */
async function migrate(databaseUrl: string, upTo = Infinity): Promise<boolean> {
  const migrations = await loadMigrations('postgres');
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'svc-migrate' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('BEGIN');
    // Instances starting together take turns; the lock ends with the transaction.
    await client.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey]);
    await client.query(`CREATE TABLE IF NOT EXISTS ${ledgerTable} (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
    const applied = await client.query<AppliedMigration>(`SELECT version, name, checksum FROM ${ledgerTable} ORDER BY version`);
    for (const migration of pendingMigrations(migrations, applied.rows).filter((pending) => pending.version <= upTo)) {
      await client.query(migration.sql);
      await client.query(`INSERT INTO ${ledgerTable} (version, name, checksum, applied_at) VALUES ($1, $2, $3, $4)`, [
        migration.version,
        migration.name,
        migration.checksum,
        Date.now(),
      ]);
    }
    await client.query('COMMIT');
    return applied.rows.length === 0;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A signal across instances: heard here at once, by the others through NOTIFY and the listening connection. */
function notifiedSignal(wakeUps: WakeUps, channel: { notify(): void }, listener: Listener): StoreSignal {
  return {
    announce: () => {
      wakeUps.fire();
      channel.notify();
    },
    on: (callback) => {
      listener.start();
      return wakeUps.add(callback);
    },
    hears: () => listener.listening,
  };
}

/** NOTIFY on a channel, one in flight at a time; calls made meanwhile are folded into one more. */
function foldedNotify(pool: pg.Pool, channel: string, onError: (error: unknown) => void): { notify(): void; settled(): Promise<void> } {
  let notifying: Promise<void> | null = null;
  let again = false;
  const notify = (): void => {
    if (notifying) {
      again = true;
      return;
    }
    notifying = pool
      .query(`NOTIFY ${channel}`)
      .then(() => undefined)
      .catch(onError)
      .finally(() => {
        notifying = null;
        if (again) {
          again = false;
          notify();
        }
      });
  };
  return { notify, settled: async () => void (await notifying) };
}
