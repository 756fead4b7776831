import { describe, expect, it } from 'vitest';
import { isBranchName, isCommitId } from './git-names.js';

describe('git names', () => {
  it('knows a full commit id', () => {
    expect(isCommitId('a'.repeat(40))).toBe(true);
    expect(isCommitId('b'.repeat(64))).toBe(true);
    expect(isCommitId('abc123')).toBe(false);
    expect(isCommitId('A'.repeat(40))).toBe(false);
    expect(isCommitId(`--upload-pack=x${'a'.repeat(25)}`)).toBe(false);
  });

  it.each(['main', 'release/2026-11', 'feature/x.y', 'staging'])('accepts the branch %s', (name) => expect(isBranchName(name)).toBe(true));
  it.each(['', '-x', 'a..b', 'a b', 'x.lock', '/a', 'a/', 'a//b', '.hidden', 'a~1', 'a:b', '@', 'a@{1}'])('refuses the branch "%s"', (name) => expect(isBranchName(name)).toBe(false));
});
