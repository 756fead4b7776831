// A build's disk (docs/hosting.md, "Disk"): a build is held to --build-disk, counting its
// checkout, node_modules, output and fetch, and is stopped past it saying so, with its log
// kept and nothing of it left behind; a build does not start while the disk is past
// --build-min-free; builds work in --build-dir, which may be another file system than the
// data dir. Real `svc serve` processes, a real bare repository, small caps set by flags.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { astroSite, createTestEnvironment, createTestGitRepo, eventually, GitBuildServer, htmlPage, processesWith, selectBackend, uniqueName, type TestEnvironment, type TestGitRepo } from '@svc/testkit';

const backend = await selectBackend();

describe.runIf(backend.available)(`a build's disk, on ${backend.name}`, () => {
  let environment: TestEnvironment;
  let repo: TestGitRepo;
  let buildDir: string;
  let server: GitBuildServer;
  const token = `svc_test_${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    repo = await createTestGitRepo();
    buildDir = await mkdtemp(join(tmpdir(), 'svc-build-dir-'));
    server = await GitBuildServer.start(environment.serverArgs, token, ['--build-disk', '20MiB', '--build-dir', buildDir, '--build-timeout', '90s']);
  }, 180_000);
  afterAll(async () => {
    await server?.server.stop();
    await repo?.remove();
    await rm(buildDir, { recursive: true, force: true });
    await environment?.cleanup();
  });

  it('builds within its cap in --build-dir; a build past it fails naming the disk, keeps its log, and leaves no folder or process', { timeout: 240_000 }, async () => {
    const project = await server.connect(uniqueName('disk'), 'site', repo, 'astro');
    const within = await repo.commit('main', astroSite(`import { mkdirSync, writeFileSync } from 'node:fs'; mkdirSync('dist'); writeFileSync('dist/index.html', '<h1>within</h1>' + ' '.repeat(2 * 1024 * 1024));`));
    const built = await server.ended(project, await server.queued(project, within));
    expect(built.status, built.log).toBe('succeeded');
    expect(existsSync(join(buildDir, 'git'))).toBe(true);
    expect(existsSync(join(environment.dataDir, 'builds'))).toBe(false);

    // 40 files of 1 MiB, each far below the cap, then idle: only the disk watch can end it.
    const marker = `fill-${randomBytes(4).toString('hex')}`;
    const filling = await repo.commit('main', astroSite(`import { mkdirSync, writeFileSync } from 'node:fs'; mkdirSync('dist'); for (let i = 0; i < 40; i += 1) writeFileSync('dist/' + i + '.bin', Buffer.alloc(1024 * 1024, 1)); console.log('${marker} wrote'); setInterval(() => {}, 1000);`, marker));
    const stopped = await server.ended(project, await server.queued(project, filling));
    expect(stopped.status).toBe('failed');
    expect(stopped.error).toMatch(/^the build used .* of disk, more than its cap of 20\.0 MiB \(--build-disk\)$/);
    expect(stopped.log).toContain(`${marker} wrote`);
    expect(stopped.log).toContain(`failed: ${stopped.error}`);
    expect((await server.live(project)).production).toBe(built.deploy);
    expect((await readdir(buildDir)).filter((name) => name.startsWith('bld_'))).toEqual([]);
    await eventually(() => Promise.resolve(processesWith(marker)), (left) => left.length === 0, 'the build\'s processes to be gone', 30_000);
  });

  it('does not start a build while the disk is past --build-min-free, saying so', { timeout: 240_000 }, async () => {
    // A store of its own: on PostgreSQL the other server would otherwise claim its build.
    const own = await createTestEnvironment();
    const full = await GitBuildServer.start(own.serverArgs, token, ['--build-min-free', '100000GiB']);
    try {
      const project = await full.connect(uniqueName('full'), 'site', repo);
      const commit = await repo.commit('main', { 'index.html': htmlPage('never built') });
      const build = await full.ended(project, await full.queued(project, commit));
      expect(build.status).toBe('failed');
      expect(build.error).toMatch(/^the disk is nearly full: the file system of the build folder \(.*\) has .* free, less than the 100000\.0 GiB kept free \(--build-min-free\)$/);
      expect(build.log).toContain(`failed: ${build.error}`);
    } finally {
      await full.server.stop();
      await own.cleanup();
    }
  });
});
