import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { folderBytes } from './disk-usage.js';
import { BuildError, projectGitCache, runBuild, type BuildRequest } from './run-build.js';
import { createTestRepo, type TestRepo } from './test-support/git-repos.js';
import { processesWith } from './test-support/processes.js';
import { sandboxAvailable } from './test-support/sandbox-available.js';

/** A data directory standing for the server's, with a secret a build must not read. */
let dataDir: string;
let canaryFile: string;
const canaryText = `canary-${randomBytes(8).toString('hex')}`;
const repos: TestRepo[] = [];
let bwrap = false;

beforeAll(async () => {
  bwrap = await sandboxAvailable();
  dataDir = mkdtempSync(join(tmpdir(), 'svc-data-'));
  canaryFile = join(dataDir, 'encryption.key');
  writeFileSync(canaryFile, canaryText);
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  for (const repo of repos.splice(0)) repo.remove();
});

function repo(): TestRepo {
  const made = createTestRepo();
  repos.push(made);
  return made;
}

let builds = 0;
function request(made: TestRepo, commit: string, overrides: Partial<BuildRequest> = {}): BuildRequest {
  builds += 1;
  return {
    projectId: 'prj_test',
    repoUrl: made.bare,
    commit,
    branch: 'main',
    framework: 'static',
    workDir: join(dataDir, 'builds', `bld_${builds}`),
    timeoutMs: 120_000,
    sandbox: bwrap ? 'bwrap' : 'none',
    allowLocalRepos: true,
    signal: new AbortController().signal,
    onLog: () => undefined,
    privateDirs: [dataDir],
    ...overrides,
  };
}

/** A package.json whose build runs build.js, and a lock file with no dependency (npm ci works offline). */
function npmProject(buildJs: string): Record<string, string> {
  return {
    'package.json': JSON.stringify({ name: 'site', version: '1.0.0', private: true, scripts: { build: 'node build.js' } }),
    'package-lock.json': JSON.stringify({ name: 'site', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'site', version: '1.0.0' } } }),
    'build.js': buildJs,
  };
}

/** A build that succeeds, with its log as `onLog` received it. */
async function runLogged(buildRequest: BuildRequest): Promise<{ outputDir: string; log: string }> {
  let log = '';
  const { outputDir } = await runBuild({
    ...buildRequest,
    onLog: (chunk) => {
      log += chunk;
      buildRequest.onLog(chunk);
    },
  });
  return { outputDir, log };
}

async function failure(promise: Promise<unknown>): Promise<BuildError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BuildError);
  return error as BuildError;
}

/** A build script that starts a grandchild in its own session, says so, and waits forever. */
function hangingBuild(marker: string): string {
  return `
const { spawn } = require('node:child_process');
spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)', ${JSON.stringify(marker)}], { stdio: 'ignore', detached: true }).unref();
console.log('grandchild started');
setInterval(() => {}, 1e6);
`;
}

describe('runBuild', { timeout: 120_000 }, () => {
  it('deploys a static repository at the given commit, not the branch head', async () => {
    const made = repo();
    const first = made.commit({ 'index.html': '<h1>first</h1>' });
    made.commit({ 'index.html': '<h1>second</h1>' });
    const result = await runLogged(request(made, first));
    expect(readFileSync(join(result.outputDir, 'index.html'), 'utf8')).toBe('<h1>first</h1>');
    expect(result.outputDir.startsWith(join(dataDir, 'builds'))).toBe(true);
    expect(result.log).toContain(first);
  });

  it('fetches through the project cache, and past a broken one', async () => {
    const made = repo();
    const cacheDir = projectGitCache(dataDir, `prj_cache${builds}`);
    const first = made.commit({ 'index.html': 'first' });
    expect(readFileSync(join((await runBuild(request(made, first, { cacheDir }))).outputDir, 'index.html'), 'utf8')).toBe('first');
    expect(existsSync(join(cacheDir, 'HEAD'))).toBe(true);
    const second = made.commit({ 'index.html': 'second' });
    expect(readFileSync(join((await runBuild(request(made, second, { cacheDir }))).outputDir, 'index.html'), 'utf8')).toBe('second');

    writeFileSync(join(cacheDir, 'config'), '[core\nnot git config');
    const third = made.commit({ 'index.html': 'third' });
    const result = await runLogged(request(made, third, { cacheDir }));
    expect(readFileSync(join(result.outputDir, 'index.html'), 'utf8')).toBe('third');
    expect(result.log).toContain('the cache is removed');
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('prunes the project cache to the last commit built from each branch, and removes it past its cap', async () => {
    const made = repo();
    const cacheDir = projectGitCache(dataDir, `prj_prune${builds}`);
    const heavy = made.commit({ 'index.html': 'heavy', 'big.bin': randomBytes(3 * 1024 * 1024).toString('base64') });
    await runBuild(request(made, heavy, { cacheDir }));
    const light = made.commit({ 'index.html': 'light', 'big.bin': 'small now' });
    await runBuild(request(made, light, { cacheDir }));
    // The first commit's 4 MiB blob is gone from the cache: only what the last build reaches stays.
    expect(await folderBytes([cacheDir])).toBeLessThan(1024 * 1024);

    const log = await runLogged(request(made, made.commit({ 'index.html': 'again' }), { cacheDir, gitCacheBytes: 1 }));
    expect(log.log).toContain('--build-git-cache');
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('leaves nothing in the project cache when a fetch is stopped', async () => {
    const made = repo();
    const cacheDir = projectGitCache(dataDir, `prj_stopped${builds}`);
    await runBuild(request(made, made.commit({ 'index.html': 'first' }), { cacheDir }));
    expect(existsSync(cacheDir)).toBe(true);
    const error = await failure(runBuild(request(made, made.commit({ 'index.html': 'second' }), { cacheDir, timeoutMs: 1 })));
    expect(error.code).toBe('timeout');
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('stops a build past its disk cap, naming the cap, and leaves no process; one within the cap builds', async () => {
    const disk = { diskBytes: 12 * 1024 ** 2, minFreeBytes: 0, intervalMs: 100 };
    const marker = `svc-fill-${randomBytes(6).toString('hex')}`;
    const made = repo();
    const within = made.commit(npmProject("const fs = require('node:fs'); fs.mkdirSync('dist'); fs.writeFileSync('dist/index.html', 'x'.repeat(2 * 1024 * 1024));"));
    expect(readFileSync(join((await runBuild(request(made, within, { framework: 'astro', disk }))).outputDir, 'index.html'), 'utf8')).toHaveLength(2 * 1024 * 1024);

    // 40 files of 1 MiB, none past the cap alone, then idle: only the disk watch can end it.
    const filling = made.commit(npmProject(`const fs = require('node:fs'); fs.mkdirSync('dist'); for (let i = 0; i < 40; i += 1) fs.writeFileSync('dist/' + i + '.bin', Buffer.alloc(1024 * 1024, 1)); console.log('${marker} wrote'); setInterval(() => {}, 1000);`));
    const error = await failure(runBuild(request(made, filling, { framework: 'astro', disk })));
    expect(error.code).toBe('disk_limit');
    expect(error.message).toMatch(/^the build used .* of disk, more than its cap of 12\.0 MiB \(--build-disk\)$/);
    await vi.waitFor(() => expect(processesWith(marker)).toEqual([]), { timeout: 5_000, interval: 50 });
  });

  it('stops a file larger than the disk cap as it is written', async () => {
    if (!existsSync('/usr/bin/prlimit')) return;
    const made = repo();
    const commit = made.commit(npmProject("const fs = require('node:fs'); fs.mkdirSync('dist'); fs.writeFileSync('dist/big.bin', Buffer.alloc(64 * 1024 * 1024, 1));"));
    const error = await failure(runBuild(request(made, commit, { framework: 'astro', disk: { diskBytes: 16 * 1024 ** 2, minFreeBytes: 0, intervalMs: 60_000 } })));
    expect(error.message).toContain('--build-disk');
  });

  it('does not start a build when the disk is past the watermark', async () => {
    const made = repo();
    const commit = made.commit({ 'index.html': 'x' });
    let log = '';
    const error = await failure(runBuild(request(made, commit, { disk: { diskBytes: 1024 ** 3, minFreeBytes: 2 ** 60, intervalMs: 1_000 }, onLog: (chunk) => (log += chunk) })));
    expect(error.code).toBe('disk_limit');
    expect(error.message).toMatch(/^the disk is nearly full: the file system of the build folder \(.*\) has .* free, less than the .* kept free \(--build-min-free\)$/);
    expect(log).not.toContain('Fetching');
  });

  it('builds astro with npm ci offline and gives dist', async () => {
    const made = repo();
    const commit = made.commit(npmProject("require('node:fs').mkdirSync('dist'); require('node:fs').writeFileSync('dist/index.html', 'built ' + process.env.NODE_ENV);"));
    const chunks: string[] = [];
    const result = await runLogged(request(made, commit, { framework: 'astro', onLog: (chunk) => chunks.push(chunk) }));
    expect(result.outputDir).toBe(join(dataDir, 'builds', `bld_${builds}`, 'src', 'dist'));
    expect(readFileSync(join(result.outputDir, 'index.html'), 'utf8')).toBe('built production');
    expect(chunks.join('')).toContain('$ npm ci');
    expect(result.log).toContain('$ npm run build');
  });

  it('shows a build none of the server variables and none of its data directory', async () => {
    if (!bwrap) return;
    process.env.SVC_SECRET_CANARY = canaryText;
    try {
      const made = repo();
      const script = `
const fs = require('node:fs');
console.log(JSON.stringify(process.env));
try { console.log('READ ' + fs.readFileSync(${JSON.stringify(canaryFile)}, 'utf8')); } catch (error) { console.log('UNREADABLE ' + error.code); }
console.log('ROOT ' + fs.readdirSync('/').sort().join(','));
fs.mkdirSync('dist'); fs.writeFileSync('dist/index.html', 'ok');
`;
      const commit = made.commit(npmProject(script));
      const result = await runLogged(request(made, commit, { framework: 'astro', sandbox: 'bwrap' }));
      expect(result.log).not.toContain(canaryText);
      expect(result.log).not.toContain('SVC_SECRET_CANARY');
      expect(result.log).toContain('UNREADABLE ENOENT');
      const root = /ROOT (.*)/.exec(result.log)?.[1]?.split(',') ?? [];
      expect(root).not.toContain('root');
      expect(root).not.toContain('home');
      expect(root).not.toContain('var');
      expect(root).not.toContain('work');
      const env = JSON.parse(/^\{.*\}$/m.exec(result.log)?.[0] ?? '{}') as Record<string, string>;
      expect(env).toMatchObject({ CI: 'true', NODE_ENV: 'production', HOME: '/build/home' });
    } finally {
      delete process.env.SVC_SECRET_CANARY;
    }
  });

  it('keeps the build step off the network, so it cannot reach what listens on the host, unless allowed', async () => {
    if (!bwrap) return;
    const listener = createServer((socket) => socket.end('hello from the host\n'));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const port = (listener.address() as AddressInfo).port;
      const script = `
const socket = require('node:net').connect(${port}, '127.0.0.1');
socket.on('data', (data) => { console.log('REACHED ' + data.toString().trim()); socket.destroy(); done(); });
socket.on('error', (error) => { console.log('UNREACHABLE ' + error.code); done(); });
function done() { require('node:fs').mkdirSync('dist', { recursive: true }); require('node:fs').writeFileSync('dist/index.html', 'ok'); }
`;
      const made = repo();
      const commit = made.commit(npmProject(script));
      const closed = await runLogged(request(made, commit, { framework: 'astro', sandbox: 'bwrap' }));
      expect(closed.log).toMatch(/UNREACHABLE E[A-Z]+/);
      expect(closed.log).not.toContain('REACHED hello');
      const opened = await runLogged(request(made, commit, { framework: 'astro', sandbox: 'bwrap', buildNetwork: true }));
      expect(opened.log).toContain('REACHED hello from the host');
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it('without a sandbox still gives a build none of the server variables', async () => {
    process.env.SVC_SECRET_CANARY = canaryText;
    try {
      const made = repo();
      const commit = made.commit(npmProject("console.log(JSON.stringify(process.env)); require('node:fs').mkdirSync('dist'); require('node:fs').writeFileSync('dist/index.html', 'ok');"));
      const result = await runLogged(request(made, commit, { framework: 'astro', sandbox: 'none' }));
      expect(result.log).not.toContain(canaryText);
      expect(result.log).not.toContain('SVC_SECRET_CANARY');
    } finally {
      delete process.env.SVC_SECRET_CANARY;
    }
  });

  // Without a sandbox the same process-group kill runs; process-tree.test.ts proves it at a deadline.
  it('kills the whole process tree at the timeout', async () => {
    const sandbox = bwrap ? 'bwrap' : 'none';
    const marker = `svc-hang-${randomBytes(6).toString('hex')}`;
    const made = repo();
    const commit = made.commit(npmProject(hangingBuild(marker)));
    let seenAlive: number[] = [];
    const error = await failure(
      runBuild(
        request(made, commit, {
          framework: 'astro',
          sandbox,
          timeoutMs: 15_000,
          onLog: (chunk) => {
            if (chunk.includes('grandchild started')) seenAlive = processesWith(marker);
          },
        }),
      ),
    );
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('timed out');
    expect(seenAlive.length, 'the grandchild was running before the timeout').toBeGreaterThan(0);
    await vi.waitFor(() => expect(processesWith(marker)).toEqual([]), { timeout: 5_000, interval: 50 });
  });

  it.each(['bwrap', 'none'] as const)('is canceled through its signal, leaving no process (sandbox %s)', async (sandbox) => {
    if (sandbox === 'bwrap' && !bwrap) return;
    const marker = `svc-cancel-${randomBytes(6).toString('hex')}`;
    const made = repo();
    const commit = made.commit(npmProject(hangingBuild(marker)));
    const controller = new AbortController();
    let seenAlive: number[] = [];
    const error = await failure(
      runBuild(
        request(made, commit, {
          framework: 'astro',
          sandbox,
          signal: controller.signal,
          onLog: (chunk) => {
            if (chunk.includes('grandchild started')) {
              seenAlive = processesWith(marker);
              controller.abort();
            }
          },
        }),
      ),
    );
    expect(error.code).toBe('canceled');
    expect(seenAlive.length).toBeGreaterThan(0);
    await vi.waitFor(() => expect(processesWith(marker)).toEqual([]), { timeout: 5_000, interval: 50 });
  });

  it('refuses a local repository unless local repositories are allowed', async () => {
    const made = repo();
    const commit = made.commit({ 'index.html': 'x' });
    const error = await failure(runBuild(request(made, commit, { allowLocalRepos: false })));
    expect(error.code).toBe('fetch_failed');
    expect(error.message).toContain('--allow-local-repos');
  });

  it('fails a broken build with build_failed and the end of its log', async () => {
    const made = repo();
    const commit = made.commit(npmProject("console.error('Error: cannot find module ./missing-layout.astro'); process.exit(1);"));
    let log = '';
    const error = await failure(runBuild(request(made, commit, { framework: 'astro', onLog: (chunk) => (log += chunk) })));
    expect(error.code).toBe('build_failed');
    expect(error.message).toContain('npm run build');
    expect(log).toContain('missing-layout.astro');
    expect(log.trimEnd().split('\n').at(-1)).toContain('Build failed: npm run build');
  });

  it('fails a build past its memory cap saying so', async () => {
    const made = repo();
    const commit = made.commit(npmProject('const kept = []; for (;;) kept.push(new Array(1e6).fill(Math.random()));'));
    const error = await failure(runBuild(request(made, commit, { framework: 'astro', memoryBytes: 256 * 1024 ** 2 })));
    expect(error.code).toBe('build_failed');
    expect(error.message).toContain('out of memory');
    expect(error.message).toContain('256 MiB');
  });

  it('fails with output_missing when the build writes no output folder', async () => {
    const made = repo();
    const commit = made.commit(npmProject("console.log('built nothing');"));
    const error = await failure(runBuild(request(made, commit, { framework: 'next' })));
    expect(error.code).toBe('output_missing');
    expect(error.message).toContain('out/');
  });

  it('refuses output past the configured limits', async () => {
    const made = repo();
    const commit = made.commit({ 'index.html': 'a', 'b.html': 'b', 'c.html': 'c' });
    const error = await failure(runBuild(request(made, commit, { outputLimits: { files: 2, bytes: 1024, fileBytes: 1024 } })));
    expect(error.code).toBe('build_failed');
    expect(error.message).toContain('3 files');
  });

  it('fails a project whose framework is unknown, saying to set one', async () => {
    const made = repo();
    const commit = made.commit({ 'index.html': 'a' });
    const error = await failure(runBuild(request(made, commit, { framework: 'unknown' })));
    expect(error.code).toBe('build_failed');
    expect(error.message).toContain('framework');
  });

  it('refuses a sandboxed build whose data directory the sandbox would show', async () => {
    if (!bwrap) return;
    const made = repo();
    const commit = made.commit({ 'index.html': 'a' });
    const error = await failure(runBuild(request(made, commit, { sandbox: 'bwrap', privateDirs: ['/usr/local/svc-data'] })));
    expect(error.code).toBe('sandbox_unavailable');
  });
});

describe('runBuild work folder', () => {
  it('refuses a work folder that is not empty', async () => {
    const made = repo();
    const commit = made.commit({ 'index.html': 'a' });
    const workDir = join(dataDir, 'builds', 'used');
    mkdirSync(workDir, { recursive: true });
    writeFileSync(join(workDir, 'x'), 'x');
    const error = await failure(runBuild(request(made, commit, { workDir })));
    expect(error.code).toBe('build_failed');
  });
});
