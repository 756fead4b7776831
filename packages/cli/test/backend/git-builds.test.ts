// Builds from git that run the repository's code (docs/hosting.md, "Deploys from git"): an
// astro build, what a build can see, the build timeout, a server killed mid-build, and two
// PostgreSQL instances sharing the queue; real `svc serve` processes, a real bare repository.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { memoryCapMethod } from '@svc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestEnvironment,
  createTestGitRepo,
  eventually,
  pushWebhook,
  request,
  requestAsHost,
  runSvc,
  selectBackend,
  startSvc,
  type SvcProcess,
  type TestEnvironment,
  type TestGitRepo,
  astroSite,
  uniqueName,
} from '@svc/testkit';

const backend = await selectBackend();
const run = promisify(execFile);

interface Build {
  id: string;
  environment: string;
  commit: string | null;
  status: string;
  error: string | null;
  deploy: string | null;
}

/** Processes whose command line holds `marker`: what a build left behind. */
async function processesWith(marker: string): Promise<string[]> {
  const { stdout } = await run('ps', ['-eo', 'pid,args']);
  return stdout.split('\n').filter((line) => line.includes(marker) && !line.includes('ps -eo'));
}

/** One `svc serve` on a shared environment, driven through HTTP and the real `svc` binary. */
class Instance {
  constructor(
    readonly server: SvcProcess,
    private readonly token: string,
  ) {}

  svc(args: readonly string[], cwd: string) {
    return runSvc(args, { cwd, env: { SVC_API_URL: this.server.url, SVC_TOKEN: this.token, SVC_CONFIG_DIR: `${cwd}/.config-${randomBytes(3).toString('hex')}` } });
  }

  async build(workspace: string, id: string): Promise<Build & { log: string }> {
    const headers = { authorization: `Bearer ${this.token}` };
    const shown = await request(`${this.server.url}/api/cli/projects/${workspace}/site/builds/${id}`, { headers });
    const log = await request(`${this.server.url}/api/cli/projects/${workspace}/site/builds/${id}/log`, { headers });
    if (shown.status !== 200 || log.status !== 200) throw new Error(`reading build ${id} answered ${shown.status} / ${log.status}: ${shown.text}`);
    return { ...(shown.body as { build: Build }).build, log: (log.body as { log: string }).log };
  }
}

describe.runIf(backend.available)(`builds that run the repository's code, on ${backend.name}`, () => {
  let environment: TestEnvironment;
  let repo: TestGitRepo;
  const token = `svc_test_${randomBytes(16).toString('hex')}`;
  const secretVariable = `SVC_TEST_SECRET_${randomBytes(4).toString('hex').toUpperCase()}`;
  // A deploy timeout far below a build's time: a build's deploy is not an upload that stalled.
  const args = ['--allow-local-repos', '--cli-rate-limit', '100000/1m', '--build-timeout', '40s', '--build-lease', '3s', '--build-poll-interval', '200ms', '--deploy-timeout', '1s'];
  const start = async () => new Instance(await startSvc({ args: [...environment.serverArgs, ...args], env: { SVC_BOOTSTRAP_TOKEN: token, [secretVariable]: 'do-not-leak' } }), token);
  let instance: Instance;
  let workspace: string;
  let pushUrl: string;
  let pushSecret: string;
  let directory: string;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    repo = await createTestGitRepo();
    instance = await start();
    workspace = uniqueName('builds');
    directory = (await run('mktemp', ['-d'])).stdout.trim();
    const init = await instance.svc(['init', '--workspace', workspace, '--project', 'site', '--framework', 'astro', '--branch', 'main', '--yes'], directory);
    expect(init.code, init.stderr).toBe(0);
    const connected = await instance.svc(['git', 'connect', '--repo', repo.path, '--json'], directory);
    expect(connected.code, connected.stderr).toBe(0);
    ({ pushUrl, pushSecret } = (JSON.parse(connected.stdout) as { git: { pushUrl: string; pushSecret: string } }).git);
  }, 180_000);
  afterAll(async () => {
    await instance?.server.stop();
    await repo?.remove();
    await environment?.cleanup();
  });

  const push = async (commit: string, url = pushUrl): Promise<string> => {
    const { headers, body } = pushWebhook('github', pushSecret, { ref: 'refs/heads/main', after: commit });
    const answer = await request(url.replace(/^http:\/\/[^/]+/, instance.server.url), { method: 'POST', headers, body });
    expect(answer.status).toBe(202);
    return (answer.body as { build: Build }).build.id;
  };
  const ended = (id: string, on = () => instance) =>
    eventually(
      () => on().build(workspace, id),
      (build) => build.status !== 'queued' && build.status !== 'building',
      `build ${id} to end`,
      120_000,
    );

  it('builds astro with npm ci and npm run build and serves dist; the build sees none of the server\'s environment and cannot read its data dir', { timeout: 240_000 }, async () => {
    const commit = await repo.commit(
      'main',
      astroSite(`
        import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
        console.log('ENV ' + JSON.stringify(process.env));
        let dataDir = 'unreadable';
        try { dataDir = 'READABLE ' + readdirSync(${JSON.stringify(environment.dataDir)}).join(','); } catch (error) { dataDir = 'unreadable (' + error.code + ')'; }
        console.log('DATA DIR ' + dataDir);
        console.log('ESCAPES \\u001b[2J\\u001b]0;retitled\\u0007 end');
        mkdirSync('dist', { recursive: true });
        writeFileSync('dist/index.html', '<!doctype html><h1>built by astro</h1>');
      `),
    );
    const build = await ended(await push(commit));
    expect(build.status, `${build.error}\n${build.log}`).toBe('succeeded');
    expect((await requestAsHost(instance.server.url, `${build.deploy!}.localhost`, '/')).body.toString()).toContain('built by astro');

    const line = build.log.split('\n').find((entry) => entry.startsWith('ENV '))!;
    const seen = JSON.parse(line.slice(4)) as Record<string, string>;
    expect(Object.keys(seen)).not.toContain(secretVariable);
    expect(Object.keys(seen).filter((name) => name.startsWith('SVC_'))).toEqual([]);
    expect(build.log).not.toContain(token);
    expect(build.log).not.toContain('do-not-leak');
    expect(seen).toMatchObject({ CI: 'true', NODE_ENV: 'production' });
    expect(build.log).toContain('DATA DIR unreadable');

    // What the build printed reaches a terminal with its control characters escaped, followed or not.
    expect(build.log).toContain('ESCAPES \u001b[2J');
    for (const args of [['builds', 'logs', build.id], ['builds', 'logs', build.id, '--follow']]) {
      const shown = await instance.svc([...args, '--workspace', workspace, '--project', 'site'], directory);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain('ESCAPES \\e[2J\\e]0;retitled\\u{7} end');
      expect(shown.stdout).not.toContain('\u001b');
    }
  });

  it('a build that runs longer than --deploy-timeout is not failed as a stalled upload', { timeout: 240_000 }, async () => {
    const commit = await repo.commit(
      'main',
      astroSite(`
        import { mkdirSync, writeFileSync } from 'node:fs';
        await new Promise((resolve) => setTimeout(resolve, 4000));
        mkdirSync('dist', { recursive: true });
        writeFileSync('dist/index.html', 'after a long build');
      `),
    );
    const build = await ended(await push(commit));
    expect(build.status, `${build.error}\n${build.log}`).toBe('succeeded');
    expect((await requestAsHost(instance.server.url, `${build.deploy!}.localhost`, '/')).body.toString()).toContain('after a long build');
  });

  it('fails a build past --build-timeout saying so, and leaves no process of it behind', { timeout: 240_000 }, async () => {
    const marker = `hang-${randomBytes(4).toString('hex')}`;
    const commit = await repo.commit('main', astroSite(`console.log('${marker} started'); setInterval(() => {}, 1000); // ${marker}`));
    const build = await ended(await push(commit));
    expect(build.status).toBe('failed');
    expect(build.error).toMatch(/timed out/);
    expect(await processesWith(marker)).toEqual([]);
  });

  it('a server killed during a build leaves no build stuck: after a restart the build is failed with the reason', { timeout: 240_000 }, async () => {
    const marker = `killed-${randomBytes(4).toString('hex')}`;
    const commit = await repo.commit('main', astroSite(`console.log('${marker} started'); setInterval(() => {}, 1000); // ${marker}`));
    const id = await push(commit);
    await eventually(() => instance.build(workspace, id), (build) => build.status === 'building' && build.log.includes(`${marker} started`), 'the build to run', 120_000);
    const killedPid = instance.server.pid;
    await instance.server.kill();
    instance = await start();
    const build = await ended(id);
    expect(build.status).toBe('failed');
    expect(build.error).toMatch(/stopped/);
    await eventually(() => processesWith(marker), (left) => left.length === 0, 'the killed server\'s build processes to be gone', 30_000);
    // Its build folder too: the next server removes what builds no longer running left.
    await eventually(() => readdir(join(environment.dataDir, 'builds')), (names) => !names.includes(id), 'the killed build\'s folder to be removed', 30_000);
    // Its build cgroup too, where builds get one: the next server removes it when it starts (docs/hosting.md).
    const method = await memoryCapMethod();
    if (method.kind === 'cgroup') {
      const parents = method.layout.version === 2 ? [method.layout.parent] : [method.layout.memoryParent, ...(method.layout.pidsParent === null ? [] : [method.layout.pidsParent])];
      const left = async () => (await Promise.all(parents.map(async (parent) => (await readdir(parent)).filter((name) => name.startsWith(`svc-build-${killedPid}-`)).map((name) => join(parent, name))))).flat();
      await eventually(left, (folders) => folders.length === 0, 'the killed server\'s build cgroup to be removed', 30_000);
    }
    // The queue goes on: the next push builds.
    const next = await repo.commit('main', astroSite(`import { mkdirSync, writeFileSync } from 'node:fs'; mkdirSync('dist'); writeFileSync('dist/index.html', 'after the restart');`));
    expect((await ended(await push(next))).status).toBe('succeeded');
  });
});

describe.runIf(backend.available && backend.name === 'postgres')('two instances on PostgreSQL share the build queue', () => {
  let environment: TestEnvironment;
  let repo: TestGitRepo;
  let servers: Instance[];
  const token = `svc_test_${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    repo = await createTestGitRepo();
    const start = async () => new Instance(await startSvc({ args: [...environment.serverArgs, '--allow-local-repos', '--cli-rate-limit', '100000/1m', '--build-poll-interval', '200ms', '--build-concurrency', '2'], env: { SVC_BOOTSTRAP_TOKEN: token } }), token);
    servers = [await start(), await start()];
  }, 180_000);
  afterAll(async () => {
    await Promise.all((servers ?? []).map((server) => server.server.stop()));
    await repo?.remove();
    await environment?.cleanup();
  });

  it('runs each build once, whichever instance hears the push', { timeout: 240_000 }, async () => {
    const [one, other] = servers as [Instance, Instance];
    const workspace = uniqueName('shared');
    const cwd = (await run('mktemp', ['-d'])).stdout.trim();
    const init = await one.svc(['init', '--workspace', workspace, '--project', 'site', '--framework', 'static', '--branch', 'main', '--yes'], cwd);
    expect(init.code, init.stderr).toBe(0);
    const connected = await one.svc(['git', 'connect', '--repo', repo.path, '--json'], cwd);
    const { pushUrl, pushSecret } = (JSON.parse(connected.stdout) as { git: { pushUrl: string; pushSecret: string } }).git;
    const path = new URL(pushUrl).pathname;

    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const commit = await repo.commit('main', { 'index.html': `<!doctype html><h1>push ${index}</h1>` });
      const target = index % 2 === 0 ? one : other;
      const { headers, body } = pushWebhook(index % 3 === 0 ? 'gitea' : 'github', pushSecret, { ref: 'refs/heads/main', after: commit });
      const answer = await request(`${target.server.url}${path}`, { method: 'POST', headers, body });
      ids.push((answer.body as { build: Build }).build.id);
    }
    const builds = await Promise.all(
      ids.map((id) => eventually(() => one.build(workspace, id), (build) => build.status !== 'queued' && build.status !== 'building', `build ${id}`, 120_000)),
    );
    expect(builds.every((build) => build.status === 'succeeded' || build.status === 'canceled')).toBe(true);
    expect(builds.at(-1)?.status).toBe('succeeded');
    const succeeded = builds.filter((build) => build.status === 'succeeded');
    // One deploy per build that ran, none twice: each build was run by one instance only.
    const listed = await one.svc(['deploys', 'list', '--json'], cwd);
    const deploys = (JSON.parse(listed.stdout) as { deploys: { id: string; source: { commit: string } | null }[]; live: { production: string } });
    expect(deploys.deploys.filter((deploy) => deploy.source !== null)).toHaveLength(succeeded.length);
    expect(new Set(succeeded.map((build) => build.deploy)).size).toBe(succeeded.length);
    for (const build of succeeded) expect(build.log.match(/^building /gm)).toHaveLength(1);
    expect(deploys.live.production).toBe(builds.at(-1)?.deploy);
  });
});
