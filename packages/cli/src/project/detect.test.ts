import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectBranch } from './detect-branch.js';
import { detectFramework } from './detect-framework.js';

let root: string;
const directory = async (files: Record<string, string>): Promise<string> => {
  const path = await mkdtemp(join(root, 'project-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(path, name, '..'), { recursive: true });
    await writeFile(join(path, name), text);
  }
  return path;
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-detect-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('framework detection', () => {
  it('finds next.config.*, astro.config.*, index.html, else unknown', async () => {
    expect(await detectFramework(await directory({ 'next.config.ts': '' }))).toBe('next');
    expect(await detectFramework(await directory({ 'next.config.mjs': '', 'index.html': '' }))).toBe('next');
    expect(await detectFramework(await directory({ 'astro.config.mjs': '', 'index.html': '' }))).toBe('astro');
    expect(await detectFramework(await directory({ 'index.html': '' }))).toBe('static');
    expect(await detectFramework(await directory({ 'public/index.html': '' }))).toBe('unknown');
    expect(await detectFramework(join(root, 'does-not-exist'))).toBe('unknown');
  });
});

describe('branch detection', () => {
  it('reads the checked-out branch from .git/HEAD, also from a subdirectory', async () => {
    const repo = await directory({ '.git/HEAD': 'ref: refs/heads/feature/forms\n', 'site/index.html': '' });
    expect(await detectBranch(repo)).toBe('feature/forms');
    expect(await detectBranch(join(repo, 'site'))).toBe('feature/forms');
  });

  it('follows a .git file (worktrees, submodules)', async () => {
    const gitDir = await directory({ HEAD: 'ref: refs/heads/release\n' });
    const worktree = await directory({ '.git': `gitdir: ${gitDir}\n` });
    expect(await detectBranch(worktree)).toBe('release');
  });

  it('gives nothing on a detached HEAD', async () => {
    expect(await detectBranch(await directory({ '.git/HEAD': '3f1c2a9e8b7d6c5b4a39281706f5e4d3c2b1a098\n' }))).toBeUndefined();
  });
});
