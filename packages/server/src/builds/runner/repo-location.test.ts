import { describe, expect, it } from 'vitest';
import { readRepoLocation } from './repo-location.js';

describe('readRepoLocation', () => {
  it('accepts https URLs', () => {
    const location = readRepoLocation('https://github.com/acme/site.git', false);
    expect(location).toMatchObject({ kind: 'https' });
  });

  it('refuses file URLs and paths unless local repositories are allowed', () => {
    expect(readRepoLocation('file:///srv/repo.git', false)).toMatchObject({ refused: expect.stringContaining('--allow-local-repos') });
    expect(readRepoLocation('/srv/repo.git', false)).toMatchObject({ refused: expect.stringContaining('--allow-local-repos') });
    expect(readRepoLocation('file:///srv/repo.git', true)).toEqual({ kind: 'local', path: '/srv/repo.git' });
    expect(readRepoLocation('/srv/repo.git', true)).toEqual({ kind: 'local', path: '/srv/repo.git' });
  });

  it.each([
    ['ssh://git@github.com/acme/site.git', 'only https'],
    ['git@github.com:acme/site.git', 'not a URL'],
    ['http://example.com/site.git', 'only https'],
    ['ext::sh -c touch% /tmp/pwned', 'only https'],
    ['-uhack', 'may not start'],
    ['https://user:token@github.com/acme/site.git', 'credentials'],
    ['https://github.com/a\nb', 'control characters'],
    ['relative/path', 'not a URL'],
  ])('refuses %s', (address, reason) => {
    expect(readRepoLocation(address, true)).toMatchObject({ refused: expect.stringContaining(reason) });
  });
});
