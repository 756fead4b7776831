import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForm, createTestEnvironment, postJson, selectBackend, startSvc, type SvcProcess, type TestEnvironment } from '@svc/testkit';
import type { Store } from '../../src/store/store.js';

const backend = await selectBackend();

// Several stateless instances share PostgreSQL and Redis; SQLite is one process's database.
describe.runIf(backend.available && backend.name === 'postgres')('two instances on PostgreSQL and Redis', () => {
  let environment: TestEnvironment;
  let store: Store;
  let servers: SvcProcess[];

  beforeAll(async () => {
    environment = await createTestEnvironment();
    store = await environment.openStore();
    servers = await Promise.all([startSvc({ args: [...environment.serverArgs, '--trust-proxy'] }), startSvc({ args: [...environment.serverArgs, '--trust-proxy'] })]);
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
});
