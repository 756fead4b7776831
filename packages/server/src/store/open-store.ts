import type { Store, StoreOptions } from './store.js';

/**
 * SQLite under the data dir by default; PostgreSQL when a `postgres://` URL is given. Each
 * adapter (and its driver) is loaded only when chosen.
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  const url = options.databaseUrl;
  if (url === undefined || url === '') return (await import('./sqlite/sqlite-store.js')).openSqliteStore(options);
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new Error(`--database-url must start with postgres:// or postgresql:// (got "${url.replace(/\/\/[^@/]*@/, '//…@')}")`);
  }
  return (await import('./postgres/postgres-store.js')).openPostgresStore({ ...options, databaseUrl: url });
}
