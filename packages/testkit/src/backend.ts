import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '@svc/server';
import { createScratchDatabase, deleteRedisKeys, redisUrl, scratchRedisPrefix } from './services.js';

export type BackendName = 'sqlite' | 'postgres';

/**
 * One isolated backend: a data dir, and on PostgreSQL a fresh database and a Redis key
 * prefix of its own. Tests, the reliability scenarios and the bench all make theirs here.
 */
export interface Backend {
  readonly backend: BackendName;
  /** Data directory (SQLite file and stored files on the SQLite backend). */
  readonly dataDir: string;
  /** `svc serve` flags that select this backend (PostgreSQL comes with Redis). */
  readonly serverArgs: readonly string[];
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly redisPrefix: string;
  /** Opens the store the server uses (for fixtures and for checking what was written). */
  openStore(): Promise<Store>;
  /** Drops what the backend made: its database, Redis keys and data dir. */
  cleanup(): Promise<void>;
}

export async function createBackend(backend: BackendName, label = 'svctest'): Promise<Backend> {
  const dataDir = await mkdtemp(join(tmpdir(), `${label}-`));
  const redisPrefix = scratchRedisPrefix(label);
  if (backend === 'sqlite') {
    return {
      backend,
      dataDir,
      serverArgs: ['--data-dir', dataDir],
      databaseUrl: undefined,
      redisUrl: undefined,
      redisPrefix,
      openStore: () => openStore({ dataDir }),
      cleanup: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const database = await createScratchDatabase(label.replace(/[^a-z0-9_]/g, '_'));
  const databaseUrl = database.url;
  return {
    backend,
    dataDir,
    serverArgs: ['--data-dir', dataDir, '--database-url', databaseUrl, '--redis-url', redisUrl, '--redis-prefix', redisPrefix],
    databaseUrl,
    redisUrl,
    redisPrefix,
    openStore: () => openStore({ dataDir, databaseUrl }),
    cleanup: async () => {
      await database.drop();
      await deleteRedisKeys(redisPrefix);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
