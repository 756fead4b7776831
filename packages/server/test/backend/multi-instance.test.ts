import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import {
  createForm,
  createTestEnvironment,
  deployThroughApi,
  eventually,
  postJson,
  requestAsHost,
  selectBackend,
  startSvc,
  type SvcProcess,
  type TestEnvironment,
} from '@svc/testkit';
import type { Store } from '../../src/store/store.js';

const backend = await selectBackend();

// Several stateless instances share PostgreSQL and Redis; SQLite is one process's database.
describe.runIf(backend.available && backend.name === 'postgres')('two instances on PostgreSQL and Redis', () => {
  let environment: TestEnvironment;
  let store: Store;
  let servers: SvcProcess[];
  const token = `svc_test_${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    store = await environment.openStore();
    const start = () => startSvc({ args: [...environment.serverArgs, '--trust-proxy'], env: { SVC_BOOTSTRAP_TOKEN: token } });
    servers = [await start(), await start()];
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await store.close();
    await environment.cleanup();
  });

  it('makes one record and one event from 20 concurrent duplicates spread over both instances', async () => {
    const form = await createForm(store);
    const key = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postJson(`${servers[i % 2]!.url}/api/f/${form.endpointId}`, { i }, { 'idempotency-key': key })),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(answers.map((answer) => (answer.body as { id: string }).id)).size).toBe(1);
    expect(await store.db.selectFrom('submissions').select('id').where('form_id', '=', form.formId).execute()).toHaveLength(1);
    expect(await store.db.selectFrom('events').select('id').where('project_id', '=', form.projectId).execute()).toHaveLength(1);
  });

  it('shares one rate-limit count per IP and endpoint between the instances', async () => {
    const form = await createForm(store);
    const ip = { 'x-forwarded-for': '203.0.113.50' };
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => postJson(`${servers[i % 2]!.url}/api/f/${form.endpointId}`, { i }, ip)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(30);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(10);
  });

  it('serves on one instance what another made live, at once: a new hostname, a deploy, a rollback', async () => {
    const [one, other] = servers as [SvcProcess, SvcProcess];
    const page = (title: string) => `<!doctype html><html><body><h1>${title}</h1></body></html>`;
    const seenOnOther = (text: string, what: string) => eventually(() => requestAsHost(other.url, 'www.multi.test', '/'), (answer) => answer.text === text, what);
    // The other instance looks the hostname up (no site yet) and holds that answer.
    expect((await requestAsHost(other.url, 'www.multi.test', '/')).status).toBe(404);
    const config = { workspace: 'multi', project: 'site', framework: 'static', environments: { production: { branch: 'main' } }, domains: { production: ['www.multi.test'] } };
    const created = await fetch(`${one.url}/api/cli/projects`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ config }) });
    expect(created.status).toBe(200);
    await seenOnOther('Nothing is deployed here yet.', 'the new hostname known to the other instance');

    const target = { workspace: 'multi', project: 'site', environment: 'production' };
    await deployThroughApi(one.url, token, target, { 'index.html': page('Version 1') });
    await seenOnOther(page('Version 1'), 'the first deploy served by the other instance');
    await deployThroughApi(one.url, token, target, { 'index.html': page('Version 2') });
    await seenOnOther(page('Version 2'), 'the second deploy served by the other instance');
    const rolledBack = await fetch(`${one.url}/api/cli/projects/multi/site/deploys/rollback`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ environment: 'production' }) });
    expect(rolledBack.status).toBe(200);
    await seenOnOther(page('Version 1'), 'the rollback served by the other instance');
  });
});
