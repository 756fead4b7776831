import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store, StoreOptions } from './store.js';

/** SQLite under the data dir by default; PostgreSQL when a `postgres://` URL is given. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const url = options.databaseUrl;
  if (url === undefined || url === '') return openSqliteStore(options);
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new Error(`--database-url must start with postgres:// or postgresql:// (got "${url.replace(/\/\/[^@/]*@/, '//…@')}")`);
  }
  return openPostgresStore({ ...options, databaseUrl: url });
}
