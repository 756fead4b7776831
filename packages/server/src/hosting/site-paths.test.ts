import { describe, expect, it } from 'vitest';
import { cacheControl, candidatePaths, isContentHashed } from './site-paths.js';

describe('the files a request path may name', () => {
  it.each([
    ['/', ['index.html']],
    ['/about', ['about', 'about.html', 'about/index.html']],
    ['/docs/', ['docs/index.html']],
    ['/blog/post.html', ['blog/post.html']],
    ['/assets/app.js', ['assets/app.js', 'assets/app.js.html', 'assets/app.js/index.html']],
    ['/caf%C3%A9', ['café', 'café.html', 'café/index.html']],
    // The root's rules files are the deploy's rules, never served; elsewhere such names are files.
    ['/_redirects', ['_redirects.html', '_redirects/index.html']],
    ['/_headers', ['_headers.html', '_headers/index.html']],
    ['/docs/_redirects', ['docs/_redirects', 'docs/_redirects.html', 'docs/_redirects/index.html']],
  ])('%s → %j', (path, files) => {
    expect(candidatePaths(path)).toEqual(files);
  });

  it.each(['/../secret', '/a/../../etc/passwd', '/%2e%2e/secret', '/a/%2E%2E/b', '/a//b', '/a/./b', '/a%5cb', '/a%00b', '/%E0%A4%A'])('refuses %s', (path) => {
    expect(candidatePaths(path)).toBeNull();
  });

  it.each(['/.npmrc', '/.env', '/%2Eenv', '/.git/config', '/assets/.DS_Store', '/node_modules/x/', '/service.json', '/.well-known/.secret'])('never serves %s, which deploys made before the rule may hold', (path) => {
    expect(candidatePaths(path)).toBeNull();
  });

  it('serves the .well-known folder', () => {
    expect(candidatePaths('/.well-known/security.txt')).toEqual(['.well-known/security.txt', '.well-known/security.txt.html', '.well-known/security.txt/index.html']);
  });
});

describe('content-hashed names', () => {
  it.each(['assets/app.3f9a1c2b.js', 'assets/index-BxK2a9Qd.css', '_next/static/chunks/main.js', '_astro/index.abc.css'])('%s is cached for good', (path) => {
    expect(isContentHashed(path)).toBe(true);
  });

  it.each(['index.html', 'assets/app.js', 'images/background-image.png', 'about-our-company.html'])('%s is revalidated', (path) => {
    expect(isContentHashed(path)).toBe(false);
  });
});

describe('cache-control of a served file', () => {
  it.each([
    ['assets/app.3f9a1c2b.js', 'application/javascript; charset=utf-8'],
    ['_astro/index.abc.css', 'text/css; charset=utf-8'],
  ])('%s is cached for a year, immutable', (path, type) => {
    expect(cacheControl(path, type)).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    ['page-20240115.html', 'text/html; charset=utf-8'],
    ['blog/post.3f9a1c2b.html', 'text/html; charset=utf-8'],
    ['_next/static/chunks/fallback.html', 'text/html; charset=utf-8'],
    ['feed.3f9a1c2b.xhtml', 'application/xhtml+xml'],
    ['index.html', 'text/html; charset=utf-8'],
  ])('HTML such as %s is never immutable', (path, type) => {
    expect(cacheControl(path, type)).toBe('public, max-age=0, must-revalidate');
  });
});
