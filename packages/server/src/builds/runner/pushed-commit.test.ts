import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stalePushReason, type PushedCommitCheck } from './pushed-commit.js';
import { createTestRepo, type TestRepo } from './test-support/git-repos.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function setUp(): { made: TestRepo; check: (commit: string, liveCommit: string | null) => PushedCommitCheck } {
  const made = createTestRepo();
  const dir = mkdtempSync(join(tmpdir(), 'svc-pushed-'));
  cleanups.push(() => made.remove(), () => rmSync(dir, { recursive: true, force: true }));
  return {
    made,
    check: (commit, liveCommit) => ({
      repoUrl: made.bare,
      allowLocalRepos: true,
      commit,
      branch: 'main',
      liveCommit,
      environment: 'production',
      gitDir: join(dir, 'cache.git'),
      scratchDir: join(dir, 'scratch'),
      deadline: Date.now() + 60_000,
      signal: new AbortController().signal,
    }),
  };
}

describe('a pushed commit is built', () => {
  it('when it is the head of its branch', async () => {
    const { made, check } = setUp();
    const head = made.commit({ 'index.html': 'head' });
    expect(await stalePushReason(check(head, null))).toBeNull();
  });

  it('when it descends from the live commit, though a newer one was pushed since', async () => {
    const { made, check } = setUp();
    const live = made.commit({ 'index.html': 'live' });
    const late = made.commit({ 'index.html': 'late' });
    for (let index = 0; index < 3; index += 1) made.commit({ 'index.html': `newer ${index}` });
    expect(await stalePushReason(check(late, live))).toBeNull();
  });

  it('never when it is an older commit than the live one (a replayed push)', async () => {
    const { made, check } = setUp();
    const old = made.commit({ 'index.html': 'old' });
    const live = made.commit({ 'index.html': 'live' });
    const reason = await stalePushReason(check(old, live));
    expect(reason).toContain(`not built: ${old.slice(0, 12)} is not the head of main (${live.slice(0, 12)} is), nor does it descend from ${live.slice(0, 12)}, live on production`);
  });

  it('never when it is not the head and nothing from git is live', async () => {
    const { made, check } = setUp();
    const old = made.commit({ 'index.html': 'old' });
    made.commit({ 'index.html': 'head' });
    expect(await stalePushReason(check(old, null))).toContain('nothing built from git is live on production');
  });
});
