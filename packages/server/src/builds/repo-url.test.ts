import { describe, expect, it } from 'vitest';
import { checkRepoAddress, normalizeRepoUrl } from './repo-url.js';

const strict = { allowLocalRepos: false, allowPrivateTargets: false };
const local = { allowLocalRepos: true, allowPrivateTargets: false };

describe('normalizeRepoUrl', () => {
  it('takes https:// URLs', () => {
    expect(normalizeRepoUrl(' https://github.com/acme/site.git ', strict)).toBe('https://github.com/acme/site.git');
  });

  it('refuses other schemes, credentials in the URL and private IP literals', () => {
    expect(() => normalizeRepoUrl('http://github.com/acme/site.git', strict)).toThrow(/https/);
    expect(() => normalizeRepoUrl('git@github.com:acme/site.git', strict)).toThrow(/https/);
    expect(() => normalizeRepoUrl('https://user:pw@github.com/acme/site.git', strict)).toThrow(/--token-env/);
    expect(() => normalizeRepoUrl('https://127.0.0.1/site.git', strict)).toThrow(/loopback/);
    expect(() => normalizeRepoUrl('https://169.254.169.254/site.git', strict)).toThrow(/metadata/);
  });

  it('takes file:// URLs and local paths only with --allow-local-repos', () => {
    expect(() => normalizeRepoUrl('/srv/site.git', strict)).toThrow(/--allow-local-repos/);
    expect(() => normalizeRepoUrl('file:///srv/site.git', strict)).toThrow(/--allow-local-repos/);
    expect(normalizeRepoUrl('/srv/site.git', local)).toBe('file:///srv/site.git');
    expect(normalizeRepoUrl('file:///srv/site.git', local)).toBe('file:///srv/site.git');
  });
});

describe('checkRepoAddress', () => {
  it('refuses a host name that resolves to loopback unless private targets are allowed', async () => {
    expect(await checkRepoAddress('https://localhost/site.git', strict)).toMatch(/loopback/);
    expect(await checkRepoAddress('https://localhost/site.git', { ...strict, allowPrivateTargets: true })).toBeNull();
  });
});
