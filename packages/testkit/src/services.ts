import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * The PostgreSQL and Redis servers the test suites, the reliability scenarios and the
 * benchmarks use, and scratch databases and key prefixes on them. No server code: shared by
 * the tests (under Vitest), the reliability harness and the bench (compiled).
 */
export const adminDatabaseUrl = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
export const redisUrl = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

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

export interface ScratchDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** A new, empty PostgreSQL database named `<prefix>_<random>`. */
export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** A Redis key prefix of its own, e.g. `svctest:1a2b3c4d5e6f:`. */
export function scratchRedisPrefix(prefix: string): string {
  return `${prefix}:${randomBytes(6).toString('hex')}:`;
}

export async function deleteRedisKeys(prefix: string): Promise<void> {
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

/** Runs one statement on the shared server's admin database (CREATE/DROP/ALTER DATABASE, pg_terminate_backend…). */
export async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
