// Regressions of the adversarial test: authenticated input that reached the database as it
// was (NUL characters on PostgreSQL, ten thousand nesting levels, more hostnames than one
// statement can bind) answered 500. Each now gets a documented 4xx, or works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, createProject, request, selectBackend, startCliTestServer } from '@svc/testkit';

const backend = await selectBackend();

describe.runIf(backend.available)(`the CLI API with input a store cannot hold on ${backend.name}`, () => {
  let cli: CliTestServer;

  beforeAll(async () => {
    cli = await startCliTestServer();
    await createProject(cli, 'edge', 'site');
  });
  afterAll(async () => cli?.stop());

  const call = (method: string, path: string, body?: unknown) =>
    request(`${cli.url}/api/cli${path}`, {
      method,
      headers: { authorization: `Bearer ${cli.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const config = (extra: Record<string, unknown>) => ({ workspace: 'edge', project: 'site', framework: 'static', environments: { production: { branch: 'main' } }, ...extra });

  it('refuses NUL characters in strings with 400 invalid_body, in bodies, queries and paths', async () => {
    const answers = [
      await call('PUT', '/projects/edge/site/config', { config: config({ forms: [{ slug: 'contact', name: 'Con\u0000tact' }] }) }),
      await call('POST', '/tokens', { name: 'ci\u0000' }),
      await call('GET', '/projects/edge/site/submissions?form=contact&cursor=%00'),
      await call('GET', '/projects/edge/site%00/forms'),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ ok: false, error: 'invalid_body' });
    }
  });

  it('refuses a service.json nested 10,000 levels deep with 400', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const answer = await call('PUT', '/projects/edge/site/config', `{"config":${JSON.stringify(config({}))?.slice(0, -1)},"x":${deep}}}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ ok: false, error: 'invalid_body', message: expect.stringMatching(/nested more than 64 levels/) });
  });

  it('applies a push of 15,000 hostnames, more than one statement can bind', async () => {
    const hostnames = Array.from({ length: 15_000 }, (_, i) => `h${i}.example.com`);
    const answer = await call('PUT', '/projects/edge/site/config', { config: config({ domains: { production: hostnames } }) });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    const pulled = await call('GET', '/projects/edge/site/config');
    expect((pulled.body as { config: { domains: { production: string[] } } }).config.domains.production).toHaveLength(15_000);
  });
});
