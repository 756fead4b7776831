// The inbound log (docs/hosting.md, "When a push did not deploy"): every push webhook and
// deploy hook call of a project kept with its verdict, shown by `svc builds list --all`,
// through the real `svc` binary and a real `svc serve` building from a real bare repository.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@svc/server';
import { type CliTestServer, createProject, createTestGitRepo, eventually, pushWebhook, request, selectBackend, startCliTestServer, type PushHost, type TestGitRepo, htmlPage, uniqueName } from '@svc/testkit';
import type { BuildInfo, BuildsListEntry } from '@svc/protocol/api';

const backend = await selectBackend();

type Entry = BuildsListEntry;

describe.runIf(backend.available)(`the inbound log on ${backend.name}`, () => {
  let cli: CliTestServer;
  let store: Store;
  let repo: TestGitRepo;
  let workspace: string;
  let directory: string;
  let pushUrl: string;
  let pushSecret: string;
  let projectId: string;

  beforeAll(async () => {
    // Many refused calls from one address in this file: the failed-authentication limit is raised.
    cli = await startCliTestServer(['--allow-local-repos', '--cli-rate-limit', '100000/1m', '--auth-failure-limit', '100000/1m', '--build-sandbox', 'auto', '--build-poll-interval', '200ms']);
    store = await cli.environment.openStore();
    repo = await createTestGitRepo();
    workspace = uniqueName('inbound');
    directory = await createProject(cli, workspace, 'site', { environments: { production: { branch: 'main' }, staging: { branch: 'next' } } });
    const connected = await cli.svc(['git', 'connect', '--repo', repo.path, '--json'], { cwd: directory });
    expect(connected.code, connected.stderr).toBe(0);
    ({ pushUrl, pushSecret } = connected.json<{ git: { pushUrl: string; pushSecret: string } }>().git);
    projectId = (await store.db.selectFrom('projects').innerJoin('workspaces', 'workspaces.id', 'projects.workspace_id').select('projects.id').where('workspaces.slug', '=', workspace).executeTakeFirstOrThrow()).id;
  }, 180_000);
  afterAll(async () => {
    await store?.close();
    await repo?.remove();
    await cli?.stop();
  });

  const send = (host: PushHost, push: { ref: string; after: string }, secret = pushSecret, url = pushUrl) => {
    const { headers, body } = pushWebhook(host, secret, push);
    return request(url, { method: 'POST', headers, body });
  };
  const listAll = async (...extra: string[]): Promise<Entry[]> => {
    const listed = await cli.svc(['builds', 'list', '--all', '--json', ...extra], { cwd: directory });
    expect(listed.code, listed.stderr).toBe(0);
    return listed.json<{ ok: true; entries: Entry[] }>().entries;
  };
  const deliveries = (entries: Entry[]) => entries.flatMap((entry) => (entry.kind === 'delivery' ? [entry.delivery] : []));
  const rows = () => store.db.selectFrom('inbound_deliveries').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
  const ended = (id: string) =>
    eventually(
      async () => (await cli.svc(['builds', 'show', id, '--json'], { cwd: directory })).json<{ build: BuildInfo }>().build,
      (build) => build.status !== 'queued' && build.status !== 'building',
      `build ${id} to end`,
      120_000,
    );

  it('shows an accepted push as its build, and an unmapped branch, a tag, a ping and wrong or missing signatures with their verdicts and reasons, newest first', { timeout: 180_000 }, async () => {
    const commit = await repo.commit('main', { 'index.html': htmlPage('accepted') });
    const accepted = await send('github', { ref: 'refs/heads/main', after: commit });
    expect(accepted.status).toBe(202);
    const buildId = (accepted.body as { build: BuildInfo }).build.id;
    await ended(buildId);
    const feature = await repo.commit('feature', { 'index.html': htmlPage('feature') });
    expect((await send('gitea', { ref: 'refs/heads/feature', after: feature })).status).toBe(202);
    expect((await send('github', { ref: 'refs/tags/v1.0.0', after: feature })).status).toBe(202);
    const ping = pushWebhook('github', pushSecret, { ref: 'refs/heads/main', after: commit });
    expect((await request(pushUrl, { method: 'POST', headers: { ...ping.headers, 'x-github-event': 'ping' }, body: ping.body })).status).toBe(200);
    expect((await send('gitlab', { ref: 'refs/heads/main', after: commit }, 'not-the-secret-gitlab')).status).toBe(401);
    const unsigned = await request(pushUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-github-event': 'push' }, body: JSON.stringify({ ref: 'refs/heads/main', after: commit }) });
    expect(unsigned.status).toBe(401);
    // An unknown id names no project: refused, and kept nowhere.
    const before = (await rows()).length;
    expect((await send('github', { ref: 'refs/heads/main', after: commit }, pushSecret, `${cli.url}/api/git/git_00000000000000000000000000`)).status).toBe(401);
    expect((await rows()).length).toBe(before);

    const entries = await listAll();
    expect(entries.map((entry) => entry.kind)).toEqual(['delivery', 'delivery', 'delivery', 'delivery', 'delivery', 'build']);
    expect(entries[5]).toMatchObject({ kind: 'build', build: { id: buildId, environment: 'production', commit } });
    expect(deliveries(entries)).toEqual([
      expect.objectContaining({ source: 'push', host: null, event: 'push', ref: null, commit: null, verdict: 'refused', reason: 'no signature', build: null }),
      expect.objectContaining({ source: 'push', host: 'gitlab', event: 'Push Hook', ref: null, commit: null, verdict: 'refused', reason: 'invalid signature' }),
      expect.objectContaining({ source: 'push', host: 'github', event: 'ping', verdict: 'ignored', reason: expect.stringContaining('ping') }),
      expect.objectContaining({ source: 'push', host: 'github', ref: 'refs/tags/v1.0.0', commit: feature, environment: null, verdict: 'ignored', reason: expect.stringContaining('tag') }),
      expect.objectContaining({ source: 'push', host: 'gitea', ref: 'refs/heads/feature', commit: feature, environment: null, verdict: 'ignored', reason: expect.stringContaining('feature') }),
    ]);
    const times = entries.map((entry) => (entry.kind === 'build' ? '' : entry.delivery.receivedAt)).filter(Boolean);
    expect([...times].sort().reverse()).toEqual(times);

    // The accepted delivery is kept too, naming its build; it is listed as the build.
    expect((await rows()).find((row) => row.verdict === 'accepted')).toMatchObject({ host: 'github', ref: 'refs/heads/main', git_commit: commit, environment: 'production', build_id: buildId, reason: null });

    // For people: one table, each row saying what it is, the reasons in full.
    const shown = await cli.svc(['builds', 'list', '--all'], { cwd: directory });
    expect(shown.code, shown.stderr).toBe(0);
    for (const text of [buildId, 'succeeded', 'refused', 'invalid signature', 'ignored', 'refs/tags/v1.0.0', 'feature is no environment']) expect(shown.stdout).toContain(text);
  });

  it('lists only builds without --all, as before', async () => {
    const listed = await cli.svc(['builds', 'list', '--json'], { cwd: directory });
    expect(listed.code, listed.stderr).toBe(0);
    const result = listed.json<{ ok: true; builds: BuildInfo[] }>();
    expect(Object.keys(result).sort()).toEqual(['builds', 'ok']);
    expect(result.builds.map((build) => build.id.slice(0, 4))).toEqual(['bld_']);
    expect((await cli.svc(['builds', 'list'], { cwd: directory })).stdout).not.toContain('refused');
  });

  it('keeps a deploy hook\'s calls by its id and name, never its URL; --environment keeps that environment\'s and those of none', { timeout: 180_000 }, async () => {
    const created = await cli.svc(['hooks', 'create', '--environment', 'staging', '--name', 'cms', '--json'], { cwd: directory });
    const hook = created.json<{ hook: { id: string; url: string } }>().hook;
    await repo.commit('next', { 'index.html': htmlPage('staging') });
    const called = await request(hook.url, { method: 'POST', body: 'anything' });
    expect(called.status).toBe(202);
    await ended((called.body as { build: BuildInfo }).build.id);
    expect((await rows()).at(-1)).toMatchObject({ source: 'hook', hook_id: hook.id, hook_name: 'cms', environment: 'staging', verdict: 'accepted', build_id: (called.body as { build: BuildInfo }).build.id });

    const staging = await listAll('--environment', 'staging');
    expect(staging.filter((entry) => entry.kind === 'build').map((entry) => (entry as { build: BuildInfo }).build.environment)).toEqual(['staging']);
    expect(deliveries(staging).every((delivery) => delivery.environment === null)).toBe(true);
    expect(deliveries(staging).length).toBe(5);

    // Nothing secret is kept: no secret, no signature, no hook URL, nothing of a body but its ref and commit.
    const kept = JSON.stringify(await rows());
    const signed = pushWebhook('github', pushSecret, { ref: 'refs/heads/main', after: 'a'.repeat(40) });
    for (const secret of [pushSecret, hook.url.split('/').pop()!, 'not-the-secret-gitlab', 'acme/site', 'anything', signed.headers['x-hub-signature-256']!.slice(0, 20)]) expect(kept).not.toContain(secret);
  });

  it('keeps the last 50 refused calls apart, so a flood of them pushes none of the others out', { timeout: 180_000 }, async () => {
    const kept = (await rows()).filter((row) => row.verdict !== 'refused').map((row) => row.id);
    for (let round = 0; round < 60; round++) expect((await send('github', { ref: 'refs/heads/main', after: 'b'.repeat(40) }, `forged-${round}`)).status).toBe(401);
    const after = await rows();
    expect(after.filter((row) => row.verdict === 'refused').length).toBe(50);
    expect(after.filter((row) => row.verdict !== 'refused').map((row) => row.id)).toEqual(kept);
  });

  it('keeps the last 200 accepted or ignored deliveries of a project', { timeout: 180_000 }, async () => {
    for (let round = 0; round < 205; round++) expect((await send('github', { ref: `refs/tags/t${round}`, after: 'c'.repeat(40) })).status).toBe(202);
    const after = await rows();
    const others = after.filter((row) => row.verdict !== 'refused');
    expect(others.length).toBe(200);
    expect(others.at(-1)?.ref).toBe('refs/tags/t204');
    expect(others[0]?.ref).toBe('refs/tags/t5');
    expect(after.filter((row) => row.verdict === 'refused').length).toBe(50);
  });

  it('shows a workspace token only its own projects\' deliveries', async () => {
    const others = uniqueName('others');
    await createProject(cli, others, 'site');
    const token = (await cli.svc(['tokens', 'create', '--name', 'outsider', '--workspace', others])).stdout.trim();
    const refused = await cli.svc(['builds', 'list', '--all', '--json', '--workspace', workspace, '--project', 'site'], { token });
    expect(refused.code).toBe(1);
    expect(refused.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const own = await cli.svc(['builds', 'list', '--all', '--json', '--workspace', others, '--project', 'site'], { token });
    expect(own.json()).toEqual({ ok: true, entries: [] });
  });
});
