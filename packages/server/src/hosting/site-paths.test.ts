import { describe, expect, it } from 'vitest';
import { candidatePaths, isContentHashed } from './site-paths.js';

describe('the files a request path may name', () => {
  it.each([
    ['/', ['index.html']],
    ['/about', ['about', 'about.html', 'about/index.html']],
    ['/docs/', ['docs/index.html']],
    ['/blog/post.html', ['blog/post.html']],
    ['/assets/app.js', ['assets/app.js', 'assets/app.js.html', 'assets/app.js/index.html']],
    ['/caf%C3%A9', ['café', 'café.html', 'café/index.html']],
  ])('%s → %j', (path, files) => {
    expect(candidatePaths(path)).toEqual(files);
  });

  it.each(['/../secret', '/a/../../etc/passwd', '/%2e%2e/secret', '/a/%2E%2E/b', '/a//b', '/a/./b', '/a%5cb', '/a%00b', '/%E0%A4%A'])('refuses %s', (path) => {
    expect(candidatePaths(path)).toBeNull();
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
