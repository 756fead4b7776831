// What a build's install step can reach (docs/hosting.md, "The network, and what it leaves
// open"): npm runs with no network of its own and only the server's egress proxy as a way
// out, which resolves and checks every destination with the webhooks' address policy. A
// repository whose .npmrc names a registry on loopback, or whose lock file points at the
// cloud metadata address, gets nothing from them; with --allow-private-targets (tests,
// local development) the same repository installs from its registry and builds.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  astroSite,
  createTestEnvironment,
  createTestGitRepo,
  GitBuildServer,
  requestAsHost,
  selectBackend,
  startTestNpmRegistry,
  uniqueName,
  type TestEnvironment,
  type TestGitRepo,
  type TestNpmRegistry,
} from '@svc/testkit';

const backend = await selectBackend();

/** A site whose build copies what the dependency `tiny` says into its page. */
function siteUsing(registry: string, lock: Record<string, unknown> | null): Record<string, string | null> {
  const site = astroSite(`
    import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
    mkdirSync('dist', { recursive: true });
    writeFileSync('dist/index.html', '<!doctype html><h1>' + readFileSync('node_modules/tiny/says.txt', 'utf8') + '</h1>');
  `);
  const files: Record<string, string | null> = {
    ...site,
    'package.json': JSON.stringify({ ...(JSON.parse(site['package.json']!) as object), dependencies: { tiny: '1.0.0' } }),
    '.npmrc': `registry=${registry}\n`,
  };
  // Without a lock file npm installs (`npm install`); one committed before is removed.
  files['package-lock.json'] = lock === null ? null : JSON.stringify(lock);
  return files;
}

/** A lock file whose `tiny` is fetched from `resolved`. */
function lockResolving(resolved: string): Record<string, unknown> {
  return {
    name: 'site',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name: 'site', version: '1.0.0', dependencies: { tiny: '1.0.0' } }, 'node_modules/tiny': { version: '1.0.0', resolved } },
  };
}

describe.runIf(backend.available)(`what a build's install step can reach, on ${backend.name}`, () => {
  let environment: TestEnvironment;
  let registry: TestNpmRegistry;
  let repo: TestGitRepo;
  const token = `svc_test_${randomBytes(16).toString('hex')}`;
  let strict: GitBuildServer;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    registry = await startTestNpmRegistry({ tiny: { 'says.txt': 'installed from the registry' } });
    repo = await createTestGitRepo();
    strict = await GitBuildServer.start(environment.serverArgs, token, ['--build-timeout', '90s']);
  }, 180_000);
  afterAll(async () => {
    await strict?.server.stop();
    await registry?.close();
    await repo?.remove();
    await environment?.cleanup();
  });

  it('refuses a registry on loopback that a repository names: the install fails saying so, and the registry is never asked', { timeout: 240_000 }, async () => {
    const project = await strict.connect(uniqueName('egress'), 'site', repo, 'astro');
    const commit = await repo.commit('main', siteUsing(registry.url, null));
    const build = await strict.ended(project, await strict.queued(project, commit));
    expect(build.status, build.log).toBe('failed');
    expect(build.error).toContain('npm install');
    expect(build.log).toMatch(/Install network: http:\/\/127\.0\.0\.1:\d+ refused: 127\.0\.0\.1, a loopback address \(the address policy; --allow-private-targets allows it\)/);
    expect(registry.requests).toEqual([]);
  });

  it('refuses the cloud metadata address that a lock file points at', { timeout: 240_000 }, async () => {
    const project = await strict.connect(uniqueName('metadata'), 'site', repo, 'astro');
    const commit = await repo.commit('main', siteUsing(registry.url, lockResolving('http://169.254.169.254/latest/meta-data/tiny-1.0.0.tgz')));
    const build = await strict.ended(project, await strict.queued(project, commit));
    expect(build.status, build.log).toBe('failed');
    expect(build.error).toContain('npm ci');
    expect(build.log).toContain('169.254.169.254:80 refused: 169.254.169.254, a cloud metadata address');
  });

  describe('with --allow-private-targets', () => {
    // A store of its own: on PostgreSQL the strict server would otherwise claim its builds.
    let own: TestEnvironment;
    let open: GitBuildServer;
    beforeAll(async () => {
      own = await createTestEnvironment();
      open = await GitBuildServer.start(own.serverArgs, token, ['--build-timeout', '90s', '--allow-private-targets']);
    }, 60_000);
    afterAll(async () => {
      await open?.server.stop();
      await own?.cleanup();
    });

    it('installs from the registry the repository names, through the proxy, and builds', { timeout: 240_000 }, async () => {
      const project = await open.connect(uniqueName('allowed'), 'site', repo, 'astro');
      const commit = await repo.commit('main', siteUsing(registry.url, null));
      const build = await open.ended(project, await open.queued(project, commit));
      expect(build.status, build.log).toBe('succeeded');
      expect((await requestAsHost(open.server.url, `${build.deploy!}.localhost`, '/')).body.toString()).toContain('installed from the registry');
      expect(registry.requests).toEqual(expect.arrayContaining(['/tiny', '/tiny/-/tiny-1.0.0.tgz']));
    });
  });
});
