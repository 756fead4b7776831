import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { openStore, type Store } from '../../packages/server/src/index.js';

/**
 * The behaviour suites run once per backend, chosen by SVC_TEST_BACKEND (the Vitest
 * projects `sqlite` and `postgres` set it). PostgreSQL + Redis tests get a fresh database
 * and a Redis key prefix of their own per test file; where those servers do not answer,
 * the suite is skipped with a message, except under CI=true, where that is a failure.
 */
export type BackendName = 'sqlite' | 'postgres';

export const backendName: BackendName = process.env['SVC_TEST_BACKEND'] === 'postgres' ? 'postgres' : 'sqlite';
export const adminDatabaseUrl = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
export const testRedisUrl = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export interface TestEnvironment {
  readonly backend: BackendName;
  /** Data directory of this test file (SQLite file and stored files on the SQLite backend). */
  readonly dataDir: string;
  /** `svc serve` flags that select this backend. */
  readonly serverArgs: readonly string[];
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly redisPrefix: string;
  /** Opens the store the server uses (for fixtures and for checking what was written). */
  openStore(): Promise<Store>;
  /** Drops what the environment made: its database, Redis keys and data dir. */
  cleanup(): Promise<void>;
}

const inCi = (): boolean => ['true', '1'].includes((process.env['CI'] ?? '').toLowerCase());

async function postgresAndRedisAnswer(): Promise<string | null> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    return `PostgreSQL at ${adminDatabaseUrl} does not answer (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = new Redis(testRedisUrl, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    return `Redis at ${testRedisUrl} does not answer (${(error as Error).message})`;
  } finally {
    redis.disconnect();
  }
  return null;
}

/**
 * Whether this file's suites can run on the selected backend. Call at the top of a
 * behaviour test file: `const backend = await selectBackend(); describe.runIf(backend.available)(…)`.
 */
export async function selectBackend(): Promise<{ available: boolean; name: BackendName }> {
  if (backendName === 'sqlite') return { available: true, name: 'sqlite' };
  const problem = await postgresAndRedisAnswer();
  if (problem === null) return { available: true, name: 'postgres' };
  if (inCi()) throw new Error(`CI=true requires the PostgreSQL + Redis suites to run, but ${problem}`);
  console.warn(`\n  ⚠ skipping the PostgreSQL + Redis suites: ${problem}\n`);
  return { available: false, name: 'postgres' };
}

export async function createTestEnvironment(): Promise<TestEnvironment> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-test-'));
  const redisPrefix = `svctest:${randomBytes(6).toString('hex')}:`;
  if (backendName === 'sqlite') {
    return {
      backend: 'sqlite',
      dataDir,
      serverArgs: ['--data-dir', dataDir],
      databaseUrl: undefined,
      redisUrl: undefined,
      redisPrefix,
      openStore: () => openStore({ dataDir }),
      cleanup: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const database = `svc_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${database}`);
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${database}`;
  const databaseUrl = url.toString();
  return {
    backend: 'postgres',
    dataDir,
    serverArgs: ['--data-dir', dataDir, '--database-url', databaseUrl, '--redis-url', testRedisUrl, '--redis-prefix', redisPrefix],
    databaseUrl,
    redisUrl: testRedisUrl,
    redisPrefix,
    openStore: () => openStore({ dataDir, databaseUrl }),
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
  const redis = new Redis(testRedisUrl);
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
