import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminDatabaseUrl,
  adminQuery,
  createForm,
  createTestEnvironment,
  createWebhook,
  eventually,
  inCi,
  newEncryptionKey,
  postJson,
  privateRedisProblem,
  request,
  selectBackend,
  startPrivateRedis,
  startSvc,
  type Answer,
  type FormFixture,
  type SvcProcess,
  type TestEnvironment,
} from '@svc/testkit';
import type { Store } from '../../src/store/store.js';

const backend = await selectBackend();

const health = (server: SvcProcess): Promise<Answer> => request(`${server.url}/healthz`);
const logLines = (server: SvcProcess, text: string): number => server.stderr().split('\n').filter((line) => line.includes(text)).length;

function uploadBody(bytes: number): FormData {
  const body = new FormData();
  body.append('name', 'upload');
  body.append('file', new Blob([randomBytes(bytes)]), 'big.bin');
  return body;
}

/** Where uploads are written while they arrive: files/.staging on SQLite, the spool on PostgreSQL. */
const uploadDirectory = (environment: TestEnvironment): string => (environment.backend === 'sqlite' ? join(environment.dataDir, 'files', '.staging') : join(environment.dataDir, '.spool'));

describe.runIf(backend.available)(`dependency failures on ${backend.name}`, () => {
  let environment: TestEnvironment;
  let store: Store;
  let form: FormFixture;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    store = await environment.openStore();
    form = await createForm(store, { rateLimit: { max: 10_000, windowSeconds: 60 } });
  });
  afterAll(async () => {
    await store.close();
    await environment.cleanup();
  });

  it('answers an upload the disk cannot take with 503, retry-after and connection: close; health is 503 until the storage is back', async () => {
    const server = await startSvc({ args: [...environment.serverArgs, '--health-interval', '200ms'], logLevel: 'info' });
    let restore = (): Promise<void> => Promise.resolve();
    try {
      const url = `${server.url}/api/f/${form.endpointId}`;
      expect((await health(server)).status).toBe(200);
      // The directory uploads are written to becomes a plain file: every write there fails.
      const directory = uploadDirectory(environment);
      await rm(directory, { recursive: true, force: true });
      await writeFile(directory, 'not a directory');
      restore = async () => {
        await rm(directory, { recursive: true, force: true });
        await mkdir(directory, { recursive: true, mode: 0o700 });
      };

      const refused = await request(url, { method: 'POST', body: uploadBody(2 * 1024 * 1024) });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ ok: false, error: 'unavailable', message: expect.any(String), retryAfter: 5 });
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(refused.headers.get('connection')).toBe('close');

      const down = await eventually(() => health(server), (answer) => answer.status === 503, 'health 503', 15_000);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ ok: false, error: 'unavailable', checks: { database: 'ok', storage: 'unavailable' } });
      expect(down.headers.get('retry-after')).toBe('5');
      // A person's browser gets a page that says what happened.
      const page = await request(url, { method: 'POST', body: uploadBody(2 * 1024 * 1024), headers: { accept: 'text/html' } });
      expect(page.status).toBe(503);
      expect(page.text).toContain('could not be saved just now');
      // A small file is held and committed with its submission in the database, which works.
      expect((await request(url, { method: 'POST', body: uploadBody(1024) })).status).toBe(200);

      await restore();
      expect((await eventually(() => health(server), (answer) => answer.status === 200, 'health 200', 15_000)).status).toBe(200);
      expect((await request(url, { method: 'POST', body: uploadBody(1024) })).status).toBe(200);
      expect(server.alive()).toBe(true);
      // One line when the storage went away, one when it came back: not one per request.
      expect(logLines(server, 'storage unavailable')).toBe(1);
      expect(logLines(server, 'storage is back')).toBe(1);
      expect(logLines(server, '"level":50') - logLines(server, 'storage unavailable')).toBe(0);
    } finally {
      await restore();
      expect(await server.stop()).toBe(0);
    }
  });

  it('reports the storage unavailable when the disk has less free space than --min-free-space', async () => {
    const server = await startSvc({ args: [...environment.serverArgs, '--min-free-space', '1000000GiB'], logLevel: 'info' });
    try {
      const answer = await health(server);
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ ok: false, checks: { database: 'ok', storage: 'unavailable' } });
      expect(server.stderr()).toMatch(/storage unavailable: low on disk space: .* free in .*, at least 976562\.5 GiB wanted|storage unavailable: low on disk space/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe.runIf(backend.available && backend.name === 'sqlite')('the data directory deleted while the server runs', () => {
  it('refuses writes at once, turns health 503, and a start on the empty directory says it created a new store', async () => {
    const environment = await createTestEnvironment();
    const store = await environment.openStore();
    const form = await createForm(store);
    await store.close();
    const server = await startSvc({ args: [...environment.serverArgs, '--health-interval', '200ms'], logLevel: 'info' });
    try {
      const url = `${server.url}/api/f/${form.endpointId}`;
      expect((await postJson(url, { n: 1 })).status).toBe(200);
      expect(server.stderr()).not.toContain('created a new, empty store');
      await rm(environment.dataDir, { recursive: true, force: true });

      // Not one acknowledgement into the deleted file: the commit checks the file first.
      const refused = await postJson(url, { n: 2 });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ ok: false, error: 'unavailable', message: expect.any(String), retryAfter: 5 });
      const down = await eventually(() => health(server), (answer) => answer.status === 503, 'health 503', 15_000);
      expect(down.body).toMatchObject({ checks: { storage: 'unavailable' } });
      expect(logLines(server, 'storage unavailable')).toBe(1);
      expect(server.alive()).toBe(true);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const fresh = await startSvc({ args: environment.serverArgs, logLevel: 'info' });
    try {
      expect(fresh.stderr()).toContain(`created a new, empty store in ${environment.dataDir}`);
    } finally {
      expect(await fresh.stop()).toBe(0);
      await environment.cleanup();
    }
  });
});

describe.runIf(backend.available && backend.name === 'postgres')('PostgreSQL going away', () => {
  let environment: TestEnvironment;
  let store: Store;
  const databaseName = (): string => new URL(environment.databaseUrl!).pathname.slice(1);
  const admin = adminQuery;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    store = await environment.openStore();
  });
  afterAll(async () => {
    await admin(`ALTER DATABASE ${databaseName()} ALLOW_CONNECTIONS true`).catch(() => undefined);
    await store.close();
    await environment.cleanup();
  });

  it('survives the server closing a connection that is checked out between two statements: the transaction fails as a database failure', async () => {
    const backendGone = async (pid: number): Promise<boolean> => {
      const client = new pg.Client({ connectionString: adminDatabaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM pg_stat_activity WHERE pid = $1', [pid]);
        return rows[0]?.count === '0';
      } finally {
        await client.end();
      }
    };
    // node-postgres emits `error` on a client whose connection closes while no query runs on
    // it; checked out of the pool (inside a transaction) it has no listener of the pool's.
    const outcome = store
      .transaction(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        const pid = rows[0]!.pid;
        await admin(`SELECT pg_terminate_backend(${pid})`);
        await eventually(() => backendGone(pid), (gone) => gone, 'the backend to end', 15_000);
        await sql`select 1`.execute(trx);
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    const error = await outcome;
    expect(error).not.toBeNull();
    expect(store.dependencyFailure(error)).toMatchObject({ dependency: 'database' });
    // The pool is usable again at once.
    await expect(store.health.database(false)).resolves.toBeNull();
  });

  it('gives up on a statement after the database timeout, as a database failure', async () => {
    const { openStore } = await import('../../src/store/open-store.js');
    const short = await openStore({ dataDir: environment.dataDir, databaseUrl: environment.databaseUrl, databaseTimeoutMs: 200 });
    try {
      const error = await short.db
        .selectNoFrom((eb) => eb.fn<number>('pg_sleep', [eb.val(5)]).as('slept'))
        .execute()
        .then(
          () => null,
          (failure: unknown) => failure,
        );
      expect(short.dependencyFailure(error)).toMatchObject({ dependency: 'database', reason: expect.stringContaining('--database-timeout') });
    } finally {
      await short.close();
    }
  });

  it('answers 503 with retry-after while the database refuses connections, logs it once, and comes back by itself', async () => {
    const form = await createForm(store, { rateLimit: { max: 10_000, windowSeconds: 60 } });
    const server = await startSvc({ args: [...environment.serverArgs, '--health-interval', '200ms'], logLevel: 'info' });
    try {
      const url = `${server.url}/api/f/${form.endpointId}`;
      expect((await postJson(url, { before: true })).status).toBe(200);
      await admin(`ALTER DATABASE ${databaseName()} ALLOW_CONNECTIONS false`);
      // Closed under whatever runs: requests in flight and idle connections alike.
      const during = Array.from({ length: 20 }, (_, n) => postJson(url, { during: n }));
      await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${databaseName()}' AND pid <> pg_backend_pid()`);
      const statuses = (await Promise.all(during)).map((answer) => answer.status);
      expect(statuses.filter((status) => status !== 200 && status !== 503), server.stderr()).toEqual([]);

      const refused = await eventually(() => postJson(url, { outage: true }), (answer) => answer.status === 503, 'a post refused with 503', 15_000);
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ ok: false, error: 'unavailable', message: expect.any(String), retryAfter: 5 });
      expect(refused.headers.get('retry-after')).toBe('5');
      const down = await eventually(() => health(server), (answer) => answer.status === 503, 'health 503', 15_000);
      expect(down.body).toMatchObject({ ok: false, checks: { database: 'unavailable' } });

      await admin(`ALTER DATABASE ${databaseName()} ALLOW_CONNECTIONS true`);
      expect((await eventually(() => health(server), (answer) => answer.status === 200, 'health 200', 15_000)).status).toBe(200);
      expect((await postJson(url, { after: true })).status).toBe(200);
      expect(server.alive()).toBe(true);
      expect(logLines(server, 'database unavailable')).toBe(1);
      expect(logLines(server, 'database is back')).toBe(1);
      expect(logLines(server, '"level":50') - logLines(server, 'database unavailable')).toBe(0);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
  it('records a delivery attempt made while the database went away once it is back, without sending it again', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let requests = 0;
    const receiver = createServer((incoming, answer) => {
      requests += 1;
      incoming.resume();
      void released.then(() => answer.end('ok'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as AddressInfo).port;
    // A database of its own: the suite's has the key of servers started without SVC_ENCRYPTION_KEY.
    const own = await createTestEnvironment();
    const ownStore = await own.openStore();
    const ownName = new URL(own.databaseUrl!).pathname.slice(1);
    const encryptionKey = newEncryptionKey();
    const form = await createForm(ownStore, { rateLimit: { max: 10_000, windowSeconds: 60 } });
    await createWebhook(ownStore, form, { url: `http://127.0.0.1:${port}/hook`, encryptionKey, dataDir: own.dataDir, allowPrivateTargets: true });
    // A lease of a minute: sent again only after it, the delivery would not be done in this test's time.
    const server = await startSvc({ args: [...own.serverArgs, '--allow-private-targets', '--delivery-lease', '60s', '--health-interval', '200ms'], env: { SVC_ENCRYPTION_KEY: encryptionKey }, logLevel: 'info' });
    try {
      expect((await postJson(`${server.url}/api/f/${form.endpointId}`, { n: 1 })).status).toBe(200);
      await eventually(() => Promise.resolve(requests), (count) => count === 1, 'the receiver called once', 15_000);
      await admin(`ALTER DATABASE ${ownName} ALLOW_CONNECTIONS false`);
      await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${ownName}' AND pid <> pg_backend_pid()`);
      release();
      // The receiver has answered; its outcome cannot be recorded until the database is back.
      await eventually(() => Promise.resolve(logLines(server, 'database unavailable')), (count) => count === 1, 'one "database unavailable" line', 15_000);
      await admin(`ALTER DATABASE ${ownName} ALLOW_CONNECTIONS true`);
      const status = await eventually(
        async () => (await ownStore.db.selectFrom('deliveries').innerJoin('events', 'events.id', 'deliveries.event_id').select('deliveries.status').where('events.project_id', '=', form.projectId).executeTakeFirst())?.status,
        (value) => value === 'succeeded',
        'the delivery to succeed',
        30_000,
      );
      expect(status).toBe('succeeded');
      expect(requests).toBe(1);
    } finally {
      await admin(`ALTER DATABASE ${ownName} ALLOW_CONNECTIONS true`);
      expect(await server.stop()).toBe(0);
      await new Promise((resolve) => receiver.close(resolve));
      await ownStore.close();
      await own.cleanup();
    }
  });
});

const redisProblem = privateRedisProblem();
if (backend.available && backend.name === 'postgres' && redisProblem !== null) {
  if (inCi()) throw new Error(`CI=true requires redis-server for the frozen-Redis test: ${redisProblem}`);
  console.warn(`⚠ skipping the frozen-Redis test: ${redisProblem}`);
}

describe.runIf(backend.available && backend.name === 'postgres' && redisProblem === null)('Redis frozen or killed', () => {
  it('keeps answering submissions with the per-instance fallback, reports Redis in health, and says when it is back', async () => {
    const environment = await createTestEnvironment();
    const store = await environment.openStore();
    const redis = await startPrivateRedis();
    const args = [...environment.serverArgs.filter((_arg, index, all) => all[index - 1] !== '--redis-url' && _arg !== '--redis-url'), '--redis-url', redis.url, '--health-interval', '200ms'];
    const server = await startSvc({ args, logLevel: 'info' });
    try {
      const form = await createForm(store, { rateLimit: { max: 10_000, windowSeconds: 60 } });
      const url = `${server.url}/api/f/${form.endpointId}`;
      expect((await postJson(url, { n: 0 })).status).toBe(200);

      redis.freeze();
      // Without a command timeout these would wait for as long as Redis stays frozen.
      const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => postJson(url, { n })));
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
      expect(answers[0]!.headers.get('ratelimit')).not.toBeNull();
      const frozen = await eventually(() => health(server), (answer) => (answer.body as { checks?: { redis?: string } }).checks?.redis === 'unavailable', 'Redis unavailable in health', 15_000);
      // Submissions are still stored: health stays 200 and names Redis.
      expect(frozen.status).toBe(200);
      expect(frozen.body).toMatchObject({ ok: true, checks: { database: 'ok', storage: 'ok', redis: 'unavailable' } });

      redis.thaw();
      await eventually(() => health(server), (answer) => (answer.body as { checks?: { redis?: string } }).checks?.redis === 'ok', 'Redis ok in health', 15_000);
      expect(logLines(server, 'redis unavailable')).toBe(1);
      expect(logLines(server, 'redis is back')).toBe(1);

      await redis.kill();
      expect((await postJson(url, { killed: true })).status).toBe(200);
      await redis.restart();
      await eventually(() => health(server), (answer) => (answer.body as { checks?: { redis?: string } }).checks?.redis === 'ok', 'Redis ok in health', 15_000);
      expect(logLines(server, 'redis is back')).toBe(2);
      expect(server.alive()).toBe(true);
    } finally {
      const exit = await server.stop();
      expect(exit, server.stderr().slice(-4000)).toBe(0);
      await redis.stop();
      await store.close();
      await environment.cleanup();
    }
  });
});
