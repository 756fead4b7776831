import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchCommit, type FetchCommitOptions } from './fetch-commit.js';
import { resolveBranchHead } from './resolve-branch-head.js';
import { createTestRepo, type TestRepo } from './test-support/git-repos.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function repo(): TestRepo {
  const made = createTestRepo();
  cleanups.push(() => made.remove());
  return made;
}

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fetch-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function fetchOptions(made: TestRepo, dir: string, commit: string, overrides: Partial<FetchCommitOptions> = {}): FetchCommitOptions {
  return {
    repoUrl: made.bare,
    commit,
    branch: 'main',
    allowLocalRepos: true,
    gitDir: join(dir, 'cache.git'),
    checkoutDir: join(dir, 'src'),
    scratchDir: join(dir, 'scratch'),
    deadline: Date.now() + 60_000,
    signal: new AbortController().signal,
    onLog: () => undefined,
    ...overrides,
  };
}

describe('fetchCommit', () => {
  it('writes exactly the given commit, not the branch head, without .git', async () => {
    const made = repo();
    const first = made.commit({ 'index.html': 'first', 'old.txt': 'gone later' });
    made.commit({ 'index.html': 'second' });
    const dir = workDir();
    await fetchCommit(fetchOptions(made, dir, first));
    expect(readFileSync(join(dir, 'src', 'index.html'), 'utf8')).toBe('first');
    expect(existsSync(join(dir, 'src', 'old.txt'))).toBe(true);
    expect(existsSync(join(dir, 'src', '.git'))).toBe(false);
  });

  it('falls back to the branch when the host does not give a commit by id', async () => {
    const made = repo();
    const first = made.commit({ 'index.html': 'first' });
    made.commit({ 'index.html': 'second' });
    const dir = workDir();
    const log: string[] = [];
    // Protocol v0 without uploadpack.allowReachableSHA1InWant refuses an id no tip names.
    const oldHost = [['protocol.version', '0']] as const;
    await fetchCommit(fetchOptions(made, dir, first, { onLog: (chunk) => log.push(chunk), repoUrl: `file://${made.bare}`, extraGitConfig: oldHost }));
    expect(readFileSync(join(dir, 'src', 'index.html'), 'utf8')).toBe('first');
    expect(log.join('')).toContain('fetching the branch main');
  });

  it('fetches a commit by id from an old host that allows reachable ids', async () => {
    const made = repo();
    const first = made.commit({ 'index.html': 'first' });
    made.commit({ 'index.html': 'second' });
    execFileSync('git', ['--git-dir', made.bare, 'config', 'uploadpack.allowReachableSHA1InWant', 'true']);
    const dir = workDir();
    const log: string[] = [];
    await fetchCommit(fetchOptions(made, dir, first, { onLog: (chunk) => log.push(chunk), extraGitConfig: [['protocol.version', '0']] }));
    expect(readFileSync(join(dir, 'src', 'index.html'), 'utf8')).toBe('first');
    expect(log.join('')).not.toContain('fetching the branch');
  });

  it('reuses the project cache for later commits', async () => {
    const made = repo();
    const first = made.commit({ 'index.html': 'first' });
    const dir = workDir();
    await fetchCommit(fetchOptions(made, dir, first));
    const second = made.commit({ 'index.html': 'second' });
    await fetchCommit(fetchOptions(made, dir, second, { checkoutDir: join(dir, 'src2'), scratchDir: join(dir, 'scratch2') }));
    expect(readFileSync(join(dir, 'src2', 'index.html'), 'utf8')).toBe('second');
  });

  it('refuses a local repository unless local repositories are allowed', async () => {
    const made = repo();
    const commit = made.commit({ 'index.html': 'x' });
    await expect(fetchCommit(fetchOptions(made, workDir(), commit, { allowLocalRepos: false }))).rejects.toMatchObject({ code: 'fetch_failed', message: expect.stringContaining('--allow-local-repos') });
  });

  it('fails clearly for a commit that is not in the repository', async () => {
    const made = repo();
    made.commit({ 'index.html': 'x' });
    await expect(fetchCommit(fetchOptions(made, workDir(), 'f'.repeat(40)))).rejects.toMatchObject({ code: 'fetch_failed' });
  });

  it('refuses what is not a commit id or a branch name', async () => {
    const made = repo();
    await expect(fetchCommit(fetchOptions(made, workDir(), 'HEAD'))).rejects.toMatchObject({ code: 'fetch_failed' });
    await expect(fetchCommit(fetchOptions(made, workDir(), 'a'.repeat(40), { branch: '--upload-pack=touch' }))).rejects.toMatchObject({ code: 'fetch_failed' });
  });

  it('ends as canceled when the signal is already aborted', async () => {
    const made = repo();
    const commit = made.commit({ 'index.html': 'x' });
    const controller = new AbortController();
    controller.abort();
    await expect(fetchCommit(fetchOptions(made, workDir(), commit, { signal: controller.signal }))).rejects.toMatchObject({ code: 'canceled' });
  });
});

describe('resolveBranchHead', () => {
  it('gives the head commit of a branch', async () => {
    const made = repo();
    made.commit({ 'a.txt': '1' });
    const head = made.commit({ 'a.txt': '2' });
    const staging = made.commit({ 'a.txt': '3' }, 'staging');
    expect(await resolveBranchHead(made.bare, 'main', { allowLocalRepos: true })).not.toBe(staging);
    expect(await resolveBranchHead(made.bare, 'staging', { allowLocalRepos: true })).toBe(staging);
    expect(head).toMatch(/^[0-9a-f]{40}$/);
  });

  it('fails for a branch that does not exist, and for a refused repository', async () => {
    const made = repo();
    made.commit({ 'a.txt': '1' });
    await expect(resolveBranchHead(made.bare, 'nope', { allowLocalRepos: true })).rejects.toMatchObject({ code: 'fetch_failed', message: expect.stringContaining('does not exist') });
    await expect(resolveBranchHead(made.bare, 'main', { allowLocalRepos: false })).rejects.toMatchObject({ code: 'fetch_failed' });
  });
});
