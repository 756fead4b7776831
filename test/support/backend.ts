import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../packages/server/src/index.js';
import { createScratchDatabase, deleteRedisKeys, postgresProblem, redisUrl, scratchRedisPrefix } from '../../reliability/src/harness/services.js';

/**
 * The behaviour suites run once per backend, chosen by SVC_TEST_BACKEND (the Vitest
 * projects `sqlite` and `postgres` set it). PostgreSQL + Redis tests get a fresh database
 * and a Redis key prefix of their own per test file; where those servers do not answer,
 * the suite is skipped with a message, except under CI=true, where that is a failure.
 */
export type BackendName = 'sqlite' | 'postgres';

export const backendName: BackendName = process.env['SVC_TEST_BACKEND'] === 'postgres' ? 'postgres' : 'sqlite';

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

/**
 * Whether this file's suites can run on the selected backend. Call at the top of a
 * behaviour test file: `const backend = await selectBackend(); describe.runIf(backend.available)(…)`.
 */
export async function selectBackend(): Promise<{ available: boolean; name: BackendName }> {
  if (backendName === 'sqlite') return { available: true, name: 'sqlite' };
  const problem = await postgresProblem();
  if (problem === null) return { available: true, name: 'postgres' };
  if (inCi()) throw new Error(`CI=true requires the PostgreSQL + Redis suites to run, but ${problem}`);
  console.warn(`\n  ⚠ skipping the PostgreSQL + Redis suites: ${problem}\n`);
  return { available: false, name: 'postgres' };
}

export async function createTestEnvironment(): Promise<TestEnvironment> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-test-'));
  const redisPrefix = scratchRedisPrefix('svctest');
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
  const database = await createScratchDatabase('svc_test');
  const databaseUrl = database.url;
  return {
    backend: 'postgres',
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
