import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { serverModules, type Store } from './server-modules.js';

export type BackendKind = 'sqlite' | 'postgres';

/** The same servers and variables as the test suites (test/support/backend.ts). */
export const adminDatabaseUrl = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
export const redisUrl = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

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

/** Null when PostgreSQL and Redis answer, else why not. */
export async function postgresProblem(): Promise<string | null> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    return `PostgreSQL at ${adminDatabaseUrl} does not answer (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    return `Redis at ${redisUrl} does not answer (${(error as Error).message})`;
  } finally {
    redis.disconnect();
  }
  return null;
}

export async function createBackend(kind: BackendKind): Promise<Backend> {
  const { server } = await serverModules();
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-rel-'));
  const redisPrefix = `svcrel:${randomBytes(6).toString('hex')}:`;
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
  const database = `svc_rel_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${database}`);
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${database}`;
  const databaseUrl = url.toString();
  return {
    kind,
    dataDir,
    databaseUrl,
    redisPrefix,
    serverArgs: ['--data-dir', dataDir, '--database-url', databaseUrl, '--redis-url', redisUrl, '--redis-prefix', redisPrefix],
    openStore: () => server.openStore({ dataDir, databaseUrl }),
    cleanup: async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await deleteRedisKeys(redisPrefix);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function deleteRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
