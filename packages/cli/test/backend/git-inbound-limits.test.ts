// What the inbound webhooks decide before a body is read, and what a stranger cannot do to
// another's pushes (docs/hosting.md, "Limits of inbound webhooks", "Replayed pushes"): the
// fourth adversarial test's findings, each beside the legitimate case that still works.
// Every request comes from 127.0.0.1: one address, as a git host's shared one is.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@svc/server';
import { createProject, createTestGitRepo, htmlPage, pushWebhook, request, selectBackend, sendRaw, startCliTestServer, uniqueName, type CliTestServer, type PushHost, type TestGitRepo } from '@svc/testkit';

const backend = await selectBackend();

describe.runIf(backend.available)(`inbound webhook limits on ${backend.name}`, () => {
  let cli: CliTestServer;
  let store: Store;
  let repo: TestGitRepo;
  let port: number;
  const projects: { directory: string; pushUrl: string; pushSecret: string; projectId: string }[] = [];

  beforeAll(async () => {
    // The documented failed-authentication limit (20 in 5 minutes), lowered to 5 so that a flood is short.
    cli = await startCliTestServer(['--allow-local-repos', '--auth-failure-limit', '5/5m', '--build-sandbox', 'auto', '--build-poll-interval', '200ms']);
    port = Number(new URL(cli.url).port);
    store = await cli.environment.openStore();
    repo = await createTestGitRepo();
    for (const name of ['alpha', 'beta']) {
      const workspace = uniqueName(name);
      const directory = await createProject(cli, workspace, 'site');
      const connected = await cli.svc(['git', 'connect', '--repo', repo.path, '--json'], { cwd: directory });
      expect(connected.code, connected.stderr).toBe(0);
      const { pushUrl, pushSecret } = connected.json<{ git: { pushUrl: string; pushSecret: string } }>().git;
      const project = await store.db.selectFrom('projects').innerJoin('workspaces', 'workspaces.id', 'projects.workspace_id').select('projects.id').where('workspaces.slug', '=', workspace).executeTakeFirstOrThrow();
      projects.push({ directory, pushUrl, pushSecret, projectId: project.id });
    }
  }, 180_000);
  afterAll(async () => {
    await store?.close();
    await repo?.remove();
    await cli?.stop();
  });

  const send = (url: string, secret: string, host: PushHost, push: Parameters<typeof pushWebhook>[2]) => {
    const { headers, body } = pushWebhook(host, secret, push);
    return request(url, { method: 'POST', headers, body });
  };
  /** A request whose headers promise a large body that never comes: only an answer given before the body can arrive. */
  const headersOnly = (path: string, headers: Record<string, string> = {}, length = 20_000_000) =>
    sendRaw(port, { head: [`POST ${path} HTTP/1.1`, 'host: 127.0.0.1', 'content-type: application/json', `content-length: ${length}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)].join('\r\n') }, 20_000);
  const refusedRows = (projectId: string) => store.db.selectFrom('inbound_deliveries').selectAll().where('project_id', '=', projectId).where('verdict', '=', 'refused').orderBy('id').execute();

  it('answers an unknown push URL, an unsigned push, a wrong GitLab token and an oversized declaration before reading any body', async () => {
    const [alpha] = projects;
    const path = new URL(alpha!.pushUrl).pathname;
    const unknown = await headersOnly('/api/git/git_00000000000000000000000000', { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` });
    expect(unknown).toMatchObject({ kind: 'answer', status: 401 });
    expect(unknown.kind === 'answer' && unknown.headers['connection']).toEqual(['close']);
    expect(await headersOnly(path, { 'x-github-event': 'push' })).toMatchObject({ kind: 'answer', status: 401 });
    expect(await headersOnly(path, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'not-the-secret' })).toMatchObject({ kind: 'answer', status: 401 });
    expect(await headersOnly(path, { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` }, 30_000_000)).toMatchObject({ kind: 'answer', status: 413 });
    expect((await refusedRows(alpha!.projectId)).map((row) => row.reason)).toEqual(['no signature', 'invalid signature']);
  });

  it('never reads a deploy hook\'s body, and answers an address over its limit before reading anything', async () => {
    const [alpha] = projects;
    const created = await cli.svc(['hooks', 'create', '--environment', 'production', '--name', 'cms', '--json'], { cwd: alpha!.directory });
    const hookPath = new URL(created.json<{ hook: { url: string } }>().hook.url).pathname;
    expect(await headersOnly(hookPath)).toMatchObject({ kind: 'answer', status: 202 });
    for (let i = 0; i < 5; i++) expect(await headersOnly(`/api/hooks/${'x'.repeat(40)}${i}`)).toMatchObject({ kind: 'answer', status: 404 });
    const limited = await headersOnly(`/api/hooks/${'y'.repeat(40)}`);
    expect(limited).toMatchObject({ kind: 'answer', status: 429 });
    expect(limited.kind === 'answer' && limited.headers['retry-after']).toBeTruthy();
  });

  it('verifies first: a stranger\'s wrong signatures from a shared address are limited to that push URL, and a signed push is taken whatever they did', async () => {
    const [alpha, beta] = projects;
    const commit = await repo.commit('main', { 'index.html': htmlPage('signed') });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await send(alpha!.pushUrl, `wrong-${i}`, 'github', { ref: 'refs/heads/main', after: commit })).status);
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
    // The refusals past the limit are in the inbound log too, saying so.
    expect((await refusedRows(alpha!.projectId)).at(-1)?.reason).toBe('invalid signature; too many failed signatures from this address');

    // The owner's pushes from the same address still build, on this project and every other.
    const own = await send(alpha!.pushUrl, alpha!.pushSecret, 'github', { ref: 'refs/heads/main', after: commit });
    expect(own.status, JSON.stringify(own.body)).toBe(202);
    expect(own.body).toMatchObject({ ok: true, build: { commit, status: 'queued' } });
    const other = await send(beta!.pushUrl, beta!.pushSecret, 'gitea', { ref: 'refs/heads/main', after: commit });
    expect(other.status).toBe(202);
    expect(other.body).toMatchObject({ ok: true, build: { commit } });
  });

  it('ignores a delivery sent again with the id it was taken under, and builds a new one', async () => {
    const [, beta] = projects;
    const commit = await repo.commit('main', { 'index.html': htmlPage('replayed') });
    const first = pushWebhook('github', beta!.pushSecret, { ref: 'refs/heads/main', after: commit });
    const taken = await request(beta!.pushUrl, { method: 'POST', headers: first.headers, body: first.body });
    expect(taken.body).toMatchObject({ ok: true, build: { commit } });
    const again = await request(beta!.pushUrl, { method: 'POST', headers: first.headers, body: first.body });
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ ok: true, ignored: 'replayed delivery' });
    const gitlab = { ref: 'refs/heads/main', after: commit, deliveryId: 'gitlab-event-1' };
    expect((await send(beta!.pushUrl, beta!.pushSecret, 'gitlab', gitlab)).body).toMatchObject({ ok: true, build: { commit } });
    expect((await send(beta!.pushUrl, beta!.pushSecret, 'gitlab', gitlab)).body).toEqual({ ok: true, ignored: 'replayed delivery' });
    const rows = await store.db.selectFrom('inbound_deliveries').selectAll().where('project_id', '=', beta!.projectId).where('reason', '=', 'replayed delivery').execute();
    expect(rows.map((row) => [row.verdict, row.git_commit])).toEqual([
      ['ignored', commit],
      ['ignored', commit],
    ]);
  });

  it('reads a large signed push with bounded memory, and leaves nothing spooled whether it verified or not', async () => {
    const [alpha] = projects;
    const commit = await repo.commit('main', { 'index.html': htmlPage('large') });
    // Some 3 MB of commits, as a merge of a long-lived branch sends: over the memory share, so spooled.
    const commits = Array.from({ length: 2_000 }, (_, i) => ({ id: commit, message: `commit ${i} ${'m'.repeat(1_000)}`, added: [`src/file-${i}.ts`] }));
    const large = await send(alpha!.pushUrl, alpha!.pushSecret, 'github', { ref: 'refs/heads/main', after: commit, commits });
    expect(large.status, JSON.stringify(large.body)).toBe(202);
    expect(large.body).toMatchObject({ ok: true, build: { commit } });
    const forged = pushWebhook('gitea', 'not-the-secret', { ref: 'refs/heads/main', after: commit, commits });
    const other = projects[1]!;
    expect((await request(other.pushUrl, { method: 'POST', headers: forged.headers, body: forged.body })).status).toBe(401);
    expect(await readdir(join(cli.environment.dataDir, '.inbound'))).toEqual([]);
  });
});
