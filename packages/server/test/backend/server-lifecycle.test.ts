import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createForm, createTestEnvironment, postJson, request, selectBackend, startSvc, svcBin, type TestEnvironment } from '@svc/testkit';
import { spawn } from 'node:child_process';
import type { Store } from '../../src/store/store.js';

const backend = await selectBackend();

describe.runIf(backend.available)(`server lifecycle on ${backend.name}`, () => {
  let environment: TestEnvironment;
  let store: Store;

  beforeEach(async () => {
    environment = await createTestEnvironment();
    store = await environment.openStore();
  });
  afterEach(async () => {
    await store.close();
    await environment.cleanup();
  });

  it('keeps submissions, idempotency keys and rate-limit counts across a restart', async () => {
    const form = await createForm(store, { rateLimit: { max: 3, windowSeconds: 600 } });
    const first = await startSvc({ args: environment.serverArgs });
    const url = `${first.url}/api/f/${form.endpointId}`;
    const original = await postJson(url, { message: 'before restart' }, { 'idempotency-key': 'restart-key' });
    expect(original.status).toBe(200);
    expect((await postJson(url, { n: 2 })).status).toBe(200);
    expect(await first.stop()).toBe(0);

    const second = await startSvc({ args: environment.serverArgs });
    try {
      const again = `${second.url}/api/f/${form.endpointId}`;
      const replay = await postJson(again, { message: 'after restart' }, { 'idempotency-key': 'restart-key' });
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(original.body);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      // Three requests were counted before and after the restart: the fourth is refused.
      const fourth = await postJson(again, { n: 4 });
      expect(fourth.status).toBe(429);
      const rows = await store.db.selectFrom('submissions').select('id').where('form_id', '=', form.formId).execute();
      expect(rows.map((row) => row.id)).toContain((original.body as { id: string }).id);
      expect(rows).toHaveLength(2);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('loses no acknowledged submission when killed with SIGKILL', async () => {
    const form = await createForm(store, { rateLimit: { max: 1000, windowSeconds: 60 } });
    const server = await startSvc({ args: environment.serverArgs });
    const url = `${server.url}/api/f/${form.endpointId}`;
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => postJson(url, { i })));
    await server.kill();
    const acknowledged = answers.filter((answer) => answer.status === 200).map((answer) => (answer.body as { id: string }).id);
    expect(acknowledged).toHaveLength(50);

    const restarted = await startSvc({ args: environment.serverArgs });
    try {
      const rows = await store.db.selectFrom('submissions').select('id').where('form_id', '=', form.formId).execute();
      expect(rows.map((row) => row.id).sort()).toEqual(acknowledged.sort());
      const events = await store.db.selectFrom('events').select('id').where('project_id', '=', form.projectId).execute();
      expect(events).toHaveLength(50);
    } finally {
      await restarted.stop();
    }
  });

  it('creates and prints one admin token on the first start of an empty store only', async () => {
    const first = await startSvc({ args: environment.serverArgs });
    expect(first.adminToken).toMatch(/^svc_[0-9a-z]{52}$/);
    await first.stop();
    const second = await startSvc({ args: environment.serverArgs });
    expect(second.adminToken).toBeUndefined();
    await second.stop();
    const tokens = await store.db.selectFrom('tokens').selectAll().execute();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ workspace_id: null, token_hash: createHash('sha256').update(first.adminToken!).digest('hex') });
  });

  it.runIf(backend.name === 'sqlite')('creates the database and stored files readable by their owner only, whatever the umask left', async () => {
    const form = await createForm(store);
    // Every file on disk (a small one is otherwise held in the database file).
    const server = await startSvc({ args: [...environment.serverArgs, '--max-held-file-size', '0'] });
    try {
      const body = new FormData();
      body.append('cv', new Blob(['private file']), 'cv.txt');
      expect((await request(`${server.url}/api/f/${form.endpointId}`, { method: 'POST', body })).status).toBe(200);
    } finally {
      await server.stop();
    }
    const sha = createHash('sha256').update('private file').digest('hex');
    const mode = async (...parts: string[]) => ((await stat(join(environment.dataDir, ...parts))).mode & 0o777).toString(8);
    expect(await mode('svc.sqlite')).toBe('600');
    expect(await mode('files')).toBe('700');
    expect(await mode('files', sha)).toBe('600');
  });

  it('makes SVC_BOOTSTRAP_TOKEN an admin token, once, and prints no generated one', async () => {
    const value = 'bootstrap-secret-for-tests-0123456789';
    for (let start = 0; start < 2; start++) {
      const server = await startSvc({ args: environment.serverArgs, env: { SVC_BOOTSTRAP_TOKEN: value } });
      expect(server.adminToken).toBeUndefined();
      expect(server.output().stdout).not.toContain(value);
      expect(server.output().stderr).not.toContain(value);
      await server.stop();
    }
    const tokens = await store.db.selectFrom('tokens').selectAll().execute();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ workspace_id: null, token_hash: createHash('sha256').update(value).digest('hex') });
  });

  it('answers an unexpected failure with 500 {"ok":false,"error":"internal"} and keeps serving', async () => {
    const form = await createForm(store);
    const server = await startSvc({ args: environment.serverArgs, env: { SVC_LOG_LEVEL: 'error' } });
    try {
      // PostgreSQL refuses to drop a table others refer to unless told to drop those references too.
      const drop = store.db.schema.dropTable('submissions');
      await (backend.name === 'postgres' ? drop.cascade() : drop).execute();
      const answer = await postJson(`${server.url}/api/f/${form.endpointId}`, { email: 'secret@example.com' });
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ ok: false, error: 'internal', message: 'An unexpected failure on the server; details are only in the server log.' });
      expect((await request(`${server.url}/healthz`)).status).toBe(200);
      // The cause is in the log; the submission's contents are not.
      expect(server.output().stderr).toContain('request failed');
      expect(server.output().stderr).not.toContain('secret@example.com');
    } finally {
      await server.stop();
    }
  });

  it('serves only health, metrics and the schema with --role worker', async () => {
    const form = await createForm(store);
    const worker = await startSvc({ args: [...environment.serverArgs, '--role', 'worker'] });
    try {
      expect((await request(`${worker.url}/healthz`)).status).toBe(200);
      expect((await request(`${worker.url}/metrics`)).status).toBe(200);
      expect((await request(`${worker.url}/schema/service.json`)).status).toBe(200);
      const submission = await postJson(`${worker.url}/api/f/${form.endpointId}`, { a: 1 });
      expect(submission.status).toBe(404);
      expect(submission.body).toEqual({ ok: false, error: 'not_found' });
      expect((await request(`${worker.url}/api/cli/token`, { headers: { authorization: 'Bearer x' } })).status).toBe(404);
    } finally {
      await worker.stop();
    }
  });

  it('prints a human listening line without --json and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [svcBin, 'serve', '--port', '0', '--log-level', 'warn', ...environment.serverArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('\n')) resolve();
      }),
    );
    expect(stdout.split('\n')[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
  });
});
