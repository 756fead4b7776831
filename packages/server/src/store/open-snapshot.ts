import type { SnapshotOptions, StoreSnapshot } from './snapshot.js';

/** A snapshot of the SQLite store under the data dir, or of the PostgreSQL database given. */
export async function openSnapshot(options: SnapshotOptions): Promise<StoreSnapshot> {
  const url = options.databaseUrl;
  if (url === undefined || url === '') return (await import('./sqlite/sqlite-snapshot.js')).openSqliteSnapshot(options.dataDir);
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('--database-url must start with postgres:// or postgresql://');
  return (await import('./postgres/postgres-snapshot.js')).openPostgresSnapshot(url);
}
