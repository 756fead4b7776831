// Deploys from git (docs/hosting.md, "Deploys from git"): push webhooks as GitHub, Gitea and
// GitLab send them, deploy hooks, and the build queue, through the real `svc` binary and a
// real `svc serve` building from a real bare repository made here (--allow-local-repos).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CliTestServer,
  createProject,
  createTestGitRepo,
  eventually,
  pushWebhook,
  request,
  requestAsHost,
  selectBackend,
  startCliTestServer,
  type PushHost,
  type TestGitRepo,
  htmlPage,
  uniqueName,
} from '@svc/testkit';
import type { BuildInfo } from '@svc/protocol/api';

const backend = await selectBackend();

describe.runIf(backend.available)(`deploys from git on ${backend.name}`, () => {
  let cli: CliTestServer;
  let repo: TestGitRepo;
  let workspace: string;
  let directory: string;
  let pushUrl: string;
  let pushSecret: string;

  beforeAll(async () => {
    cli = await startCliTestServer(['--allow-local-repos', '--cli-rate-limit', '100000/1m', '--build-sandbox', 'auto', '--build-poll-interval', '200ms']);
    repo = await createTestGitRepo();
    workspace = uniqueName('git');
    directory = await createProject(cli, workspace, 'site', { environments: { production: { branch: 'main' }, staging: { branch: 'next' } } });
    const connected = await cli.svc(['git', 'connect', '--repo', repo.path, '--json'], { cwd: directory });
    expect(connected.code, connected.stderr).toBe(0);
    const git = connected.json<{ ok: true; git: { repo: string; pushUrl: string; pushSecret: string } }>().git;
    pushUrl = git.pushUrl;
    pushSecret = git.pushSecret;
  }, 180_000);
  afterAll(async () => {
    await repo?.remove();
    await cli?.stop();
  });

  const send = (host: PushHost, push: { ref: string; after: string; deleted?: boolean }, secret = pushSecret) => {
    const { headers, body } = pushWebhook(host, secret, push);
    return request(pushUrl, { method: 'POST', headers, body });
  };
  const builds = async (): Promise<BuildInfo[]> => {
    const listed = await cli.svc(['builds', 'list', '--json'], { cwd: directory });
    expect(listed.code, listed.stderr).toBe(0);
    return listed.json<{ builds: BuildInfo[] }>().builds;
  };
  const ended = (id: string) =>
    eventually(
      async () => {
        const shown = await cli.svc(['builds', 'show', id, '--json'], { cwd: directory });
        return shown.json<{ build: BuildInfo }>().build;
      },
      (build) => build.status !== 'queued' && build.status !== 'building',
      `build ${id} to end`,
      120_000,
    );
  const served = async (deployId: string, path = '/') => (await requestAsHost(cli.url, `${deployId}.localhost`, path)).body.toString('utf8');
  const liveOf = async (environment: string) => {
    const listed = await cli.svc(['deploys', 'list', '--json'], { cwd: directory });
    return listed.json<{ live: Record<string, string | null> }>().live[environment] ?? null;
  };

  it('prints the push webhook once: its URL under /api/git/ and a secret', () => {
    expect(pushUrl).toMatch(new RegExp(`^${cli.url}/api/git/git_[0-9a-z]{26}$`));
    expect(pushSecret.length).toBeGreaterThanOrEqual(40);
  });

  it.each(['github', 'gitea', 'gitlab'] as const)('a signed push from %s to main deploys exactly the pushed commit to production', { timeout: 180_000 }, async (host) => {
    const commit = await repo.commit('main', { 'index.html': htmlPage(`${host} build`), 'about.html': htmlPage('about'), '.env': 'SECRET=1' });
    const answer = await send(host, { ref: 'refs/heads/main', after: commit });
    expect(answer.status).toBe(202);
    const queued = (answer.body as { ok: true; build: BuildInfo }).build;
    expect(queued).toMatchObject({ environment: 'production', branch: 'main', commit, status: 'queued' });
    // A later commit on main must not be what gets deployed.
    await repo.commit('main', { 'index.html': htmlPage('not pushed') });
    const build = await ended(queued.id);
    expect(build, build.error ?? '').toMatchObject({ status: 'succeeded', commit, trigger: 'push', createdBy: 'git push' });
    expect(await served(build.deploy!)).toContain(`${host} build`);
    expect(await liveOf('production')).toBe(build.deploy);

    const deploys = (await cli.svc(['deploys', 'list', '--json'], { cwd: directory })).json<{ deploys: { id: string; source: unknown; createdBy: string; commit: string; files: number }[] }>().deploys;
    const deploy = deploys.find((entry) => entry.id === build.deploy);
    expect(deploy).toMatchObject({ commit, createdBy: 'git push', source: { type: 'git', repo: expect.stringContaining('site.git'), branch: 'main', commit, trigger: 'push' } });
    // The same never-uploaded rules as svc deploy: .env stays out.
    expect(deploy?.files).toBe(2);
    expect((await requestAsHost(cli.url, `${build.deploy!}.localhost`, '/.env')).status).toBe(404);
  });

  it('refuses a push with a wrong or missing signature with 401 invalid_signature, queueing nothing', { timeout: 180_000 }, async () => {
    const before = (await builds()).length;
    const commit = await repo.commit('main', { 'index.html': htmlPage('forged') });
    for (const host of ['github', 'gitea', 'gitlab'] as const) {
      const forged = await send(host, { ref: 'refs/heads/main', after: commit }, 'not-the-secret');
      expect([forged.status, forged.body]).toEqual([401, { ok: false, error: 'invalid_signature' }]);
    }
    const unsigned = await request(pushUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-github-event': 'push' }, body: JSON.stringify({ ref: 'refs/heads/main', after: commit }) });
    expect([unsigned.status, unsigned.body]).toEqual([401, { ok: false, error: 'invalid_signature' }]);
    // A signature over another body does not carry over.
    const signed = pushWebhook('github', pushSecret, { ref: 'refs/heads/main', after: commit });
    const tampered = await request(pushUrl, { method: 'POST', headers: signed.headers, body: signed.body.replace('main', 'mainx') });
    expect(tampered.status).toBe(401);
    const unknown = await request(`${cli.url}/api/git/git_00000000000000000000000000`, { method: 'POST', ...pushWebhook('github', pushSecret, { ref: 'refs/heads/main', after: commit }) });
    expect(unknown.status).toBe(401);
    expect((await builds()).length).toBe(before);
  });

  it('acknowledges and ignores, with the reason, a branch no environment maps, a tag, a deletion and a ping', { timeout: 180_000 }, async () => {
    const before = (await builds()).length;
    const commit = await repo.commit('feature', { 'index.html': htmlPage('feature') });
    const other = await send('github', { ref: 'refs/heads/feature', after: commit });
    expect(other.status).toBe(202);
    expect((other.body as { ignored: string }).ignored).toContain('feature');
    const tag = await send('gitea', { ref: 'refs/tags/v1.0.0', after: commit });
    expect([tag.status, (tag.body as { ignored: string }).ignored]).toEqual([202, expect.stringContaining('tag')]);
    const deleted = await send('gitlab', { ref: 'refs/heads/main', after: '0'.repeat(40) });
    expect([deleted.status, (deleted.body as { ignored: string }).ignored]).toEqual([202, expect.stringContaining('deleted')]);
    const ping = pushWebhook('github', pushSecret, { ref: 'refs/heads/main', after: commit });
    const pinged = await request(pushUrl, { method: 'POST', headers: { ...ping.headers, 'x-github-event': 'ping' }, body: ping.body });
    expect([pinged.status, pinged.body]).toEqual([200, { ok: true }]);
    expect((await builds()).length).toBe(before);
  });

  it('deploys a push to the staging branch to staging, leaving production as it was', { timeout: 180_000 }, async () => {
    const production = await liveOf('production');
    const commit = await repo.commit('next', { 'index.html': htmlPage('staging build') });
    const answer = await send('github', { ref: 'refs/heads/next', after: commit });
    const build = await ended((answer.body as { build: BuildInfo }).build.id);
    expect(build).toMatchObject({ status: 'succeeded', environment: 'staging', commit });
    expect(await liveOf('staging')).toBe(build.deploy);
    expect(await liveOf('production')).toBe(production);
  });

  it('a deploy hook builds the head of its environment\'s branch; its URL is shown once, listed never, and stops working when removed', { timeout: 180_000 }, async () => {
    const created = await cli.svc(['hooks', 'create', '--environment', 'production', '--name', 'cms', '--json'], { cwd: directory });
    expect(created.code, created.stderr).toBe(0);
    const hook = created.json<{ hook: { id: string; name: string; environment: string; url: string } }>().hook;
    expect(hook).toMatchObject({ name: 'cms', environment: 'production', url: expect.stringMatching(new RegExp(`^${cli.url}/api/hooks/[A-Za-z0-9_-]{27,}$`)) });
    const head = await repo.commit('main', { 'index.html': htmlPage('from the hook') });

    const called = await request(hook.url, { method: 'POST' });
    expect(called.status).toBe(202);
    const build = await ended((called.body as { build: BuildInfo }).build.id);
    expect(build).toMatchObject({ status: 'succeeded', commit: head, trigger: 'hook', createdBy: 'cms' });
    expect(await served(build.deploy!)).toContain('from the hook');

    const listed = await cli.svc(['hooks', 'list', '--json'], { cwd: directory });
    expect(listed.stdout).not.toContain(hook.url.split('/').pop());
    expect(listed.json<{ hooks: { id: string; lastUsedAt: string | null }[] }>().hooks).toEqual([expect.objectContaining({ id: hook.id, lastUsedAt: expect.any(String) })]);
    expect((await cli.svc(['hooks', 'remove', hook.id], { cwd: directory })).code).toBe(0);
    expect((await request(hook.url, { method: 'POST' })).status).toBe(404);

    type Entry = { action: string; actor: { type: string; name: string }; object: { type: string; id: string } | null };
    const audit = (await cli.svc(['audit-log', '--workspace', workspace, '--limit', '200', '--json'])).json<{ entries: Entry[] }>().entries;
    const actions = (action: string) => audit.filter((entry) => entry.action === action);
    expect(actions('git.connected')).toEqual([expect.objectContaining({ actor: expect.objectContaining({ type: 'token' }), object: { type: 'project', id: 'site' } })]);
    expect(actions('hook.created')).toEqual([expect.objectContaining({ object: { type: 'hook', id: hook.id } })]);
    expect(actions('hook.removed')).toEqual([expect.objectContaining({ object: { type: 'hook', id: hook.id } })]);
    expect(actions('build.queued')).toContainEqual(expect.objectContaining({ actor: expect.objectContaining({ type: 'system', name: 'cms' }), object: { type: 'build', id: build.id } }));
    expect(JSON.stringify(audit)).not.toContain(hook.url.split('/').pop());
  });

  it('two pushes in a row: the first is canceled or finished, the second is what stays live', { timeout: 180_000 }, async () => {
    const first = await repo.commit('main', { 'index.html': htmlPage('first of two') });
    const a = await send('github', { ref: 'refs/heads/main', after: first });
    const second = await repo.commit('main', { 'index.html': htmlPage('second of two') });
    const b = await send('github', { ref: 'refs/heads/main', after: second });
    const firstBuild = await ended((a.body as { build: BuildInfo }).build.id);
    const secondBuild = await ended((b.body as { build: BuildInfo }).build.id);
    expect(['canceled', 'succeeded']).toContain(firstBuild.status);
    if (firstBuild.status === 'canceled') expect(firstBuild.error).toContain(secondBuild.id);
    expect(secondBuild).toMatchObject({ status: 'succeeded', commit: second });
    expect(await liveOf('production')).toBe(secondBuild.deploy);
    expect(await served(secondBuild.deploy!)).toContain('second of two');
  });

  it('keeps each build\'s log for svc builds logs, and --follow ends with the build', { timeout: 180_000 }, async () => {
    const [latest] = await builds();
    const logs = await cli.svc(['builds', 'logs', latest!.id], { cwd: directory });
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain(latest!.commit!);
    const followed = await cli.svc(['builds', 'logs', latest!.id, '--follow'], { cwd: directory });
    expect(followed.code, followed.stderr).toBe(0);
    expect(followed.stderr).toContain('succeeded');
  });

  it('a build whose output has no index.html fails saying so, with deploy.failed, and what was live stays live', { timeout: 180_000 }, async () => {
    const live = await liveOf('production');
    const broken = await repo.commit('main', { 'index.html': null, 'README.md': 'no site here' }, 'remove the site');
    const answer = await send('github', { ref: 'refs/heads/main', after: broken });
    const build = await ended((answer.body as { build: BuildInfo }).build.id);
    expect(build.status).toBe('failed');
    expect(build.error).toContain('index.html');
    expect(await liveOf('production')).toBe(live);
    const deploys = (await cli.svc(['deploys', 'list', '--json'], { cwd: directory })).json<{ deploys: { id: string; state: string; error: string | null }[] }>().deploys;
    expect(deploys.find((deploy) => deploy.id === build.deploy)).toMatchObject({ state: 'failed', error: expect.stringContaining('index.html') });
  });
});
