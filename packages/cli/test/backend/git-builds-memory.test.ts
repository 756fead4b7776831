// A build's memory cap (docs/hosting.md, "Time, processes, memory and priority"): a build
// that allocates past `--build-memory` outside node's heap is stopped by its cgroup and
// fails saying so, leaving no process and no cgroup behind; a real `svc serve`, a real bare
// repository. Where this host lets no cgroup be made, the test says so and skips.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
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
  runSvc,
  selectBackend,
  startSvc,
  type SvcProcess,
  type TestEnvironment,
  type TestGitRepo,
  astroSite,
} from '@svc/testkit';

const backend = await selectBackend();
const run = promisify(execFile);
// The server is this process's child, so it makes its cgroups where this process can.
const method = await memoryCapMethod();
if (method.kind !== 'cgroup') console.warn(`git-builds-memory.test.ts: skipped, since ${method.description}`);

interface Build {
  id: string;
  status: string;
  error: string | null;
}

describe.runIf(backend.available && method.kind === 'cgroup')(`a build past --build-memory, on ${backend.name}`, () => {
  let environment: TestEnvironment;
  let repo: TestGitRepo;
  let server: SvcProcess;
  const token = `svc_test_${randomBytes(16).toString('hex')}`;
  const workspace = `memory-${randomBytes(3).toString('hex')}`;
  let pushUrl: string;
  let pushSecret: string;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    repo = await createTestGitRepo();
    server = await startSvc({
      args: [...environment.serverArgs, '--allow-local-repos', '--cli-rate-limit', '100000/1m', '--build-memory', '96MiB', '--build-timeout', '60s', '--build-poll-interval', '200ms'],
      env: { SVC_BOOTSTRAP_TOKEN: token },
    });
    const directory = (await run('mktemp', ['-d'])).stdout.trim();
    const env = { SVC_API_URL: server.url, SVC_TOKEN: token, SVC_CONFIG_DIR: join(directory, '.config') };
    const init = await runSvc(['init', '--workspace', workspace, '--project', 'site', '--framework', 'astro', '--branch', 'main', '--yes'], { cwd: directory, env });
    expect(init.code, init.stderr).toBe(0);
    const connected = await runSvc(['git', 'connect', '--repo', repo.path, '--json'], { cwd: directory, env });
    expect(connected.code, connected.stderr).toBe(0);
    ({ pushUrl, pushSecret } = (JSON.parse(connected.stdout) as { git: { pushUrl: string; pushSecret: string } }).git);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await repo?.remove();
    await environment?.cleanup();
  });

  it('fails with the memory reason when Buffers outside the heap pass the cap, and leaves no process and no cgroup behind', { timeout: 240_000 }, async () => {
    const marker = `allocate-${randomBytes(4).toString('hex')}`;
    // 1 GiB in Buffers, which node's heap cap does not count; the script then idles so that only the cap can end it.
    const commit = await repo.commit('main', astroSite(`const kept = []; for (let i = 0; i < 64; i += 1) kept.push(Buffer.alloc(16 * 1024 * 1024, 1)); console.log('${marker} survived'); setInterval(() => {}, 1000);`, marker));
    const { headers, body } = pushWebhook('github', pushSecret, { ref: 'refs/heads/main', after: commit });
    const answer = await request(pushUrl.replace(/^http:\/\/[^/]+/, server.url), { method: 'POST', headers, body });
    expect(answer.status).toBe(202);
    const id = (answer.body as { build: Build }).build.id;
    const auth = { headers: { authorization: `Bearer ${token}` } };
    const build = await eventually(
      async () => (await request(`${server.url}/api/cli/projects/${workspace}/site/builds/${id}`, auth)).body as { build: Build },
      (shown) => shown.build.status !== 'queued' && shown.build.status !== 'building',
      `build ${id} to end`,
      120_000,
    );
    const log = ((await request(`${server.url}/api/cli/projects/${workspace}/site/builds/${id}/log`, auth)).body as { log: string }).log;
    expect(build.build.status, log).toBe('failed');
    expect(build.build.error).toBe("npm run build --no-update-notifier ran out of memory (the build's cap is 96 MiB, --build-memory)");
    expect(log).not.toContain(`${marker} survived`);

    const name = /^Memory cap: 96 MiB \(cgroup v[12] (svc-build-\d+-[0-9a-f]+)\)$/m.exec(log)?.[1];
    expect(name, log).toBeDefined();
    const parents = method.kind !== 'cgroup' ? [] : method.layout.version === 2 ? [method.layout.parent] : [method.layout.memoryParent, ...(method.layout.pidsParent === null ? [] : [method.layout.pidsParent])];
    expect(parents.filter((parent) => existsSync(join(parent, name!)))).toEqual([]);
    const { stdout } = await run('ps', ['-eo', 'pid,args']);
    expect(stdout.split('\n').filter((line) => line.includes(marker) && !line.includes('ps -eo'))).toEqual([]);
  });
});
