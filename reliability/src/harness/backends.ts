import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverModules, type Store } from './server-modules.js';
import { createScratchDatabase, deleteRedisKeys, redisUrl, scratchRedisPrefix } from './services.js';

export { adminDatabaseUrl, postgresProblem, redisUrl } from './services.js';

export type BackendKind = 'sqlite' | 'postgres';

/** One isolated backend: a data dir, and on PostgreSQL a fresh database and Redis key prefix. */
export interface Backend {
  readonly kind: BackendKind;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly redisPrefix: string;
  /** `svc serve` flags that select this backend (PostgreSQL comes with Redis). */
  readonly serverArgs: readonly string[];
  openStore(): Promise<Store>;
  /** Drops the database, the Redis keys and the data dir. */
  cleanup(): Promise<void>;
}

export async function createBackend(kind: BackendKind): Promise<Backend> {
  const { server } = await serverModules();
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-rel-'));
  const redisPrefix = scratchRedisPrefix('svcrel');
  if (kind === 'sqlite') {
    return {
      kind,
      dataDir,
      databaseUrl: undefined,
      redisPrefix,
      serverArgs: ['--data-dir', dataDir],
      openStore: () => server.openStore({ dataDir }),
      cleanup: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const database = await createScratchDatabase('svc_rel');
  const databaseUrl = database.url;
  return {
    kind,
    dataDir,
    databaseUrl,
    redisPrefix,
    serverArgs: ['--data-dir', dataDir, '--database-url', databaseUrl, '--redis-url', redisUrl, '--redis-prefix', redisPrefix],
    openStore: () => server.openStore({ dataDir, databaseUrl }),
    cleanup: async () => {
      await database.drop();
      await deleteRedisKeys(redisPrefix);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
