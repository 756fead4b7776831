import { parseHeaders, parseRedirects } from '@svc/protocol/site-rules';
import { describe, expect, it } from 'vitest';
import { sitePath } from '../hosting/site-paths.js';
import { CompiledSiteRules } from './compiled-site-rules.js';

const encode = (text: string) => new TextEncoder().encode(text);
const compile = (redirects: string, headers = '') => new CompiledSiteRules({ redirects: parseRedirects(encode(redirects)), headers: parseHeaders(encode(headers)) });

/** What the rules answer for a request URL (path and query), as hosting asks: decoded segments, the query apart. */
function answer(rules: CompiledSiteRules, url: string, fileAnswers = false) {
  const [path, search = ''] = url.split('?') as [string, string?];
  const decoded = sitePath(path);
  if (decoded === null) return 'not a site path';
  const found = rules.answer(decoded.segments, search, fileAnswers);
  if (found === null) return null;
  return found.kind === 'redirect' ? `${found.status} ${found.location}` : `${found.status} file ${found.path}`;
}

const headersOf = (rules: CompiledSiteRules, path: string) => rules.headers(sitePath(path)!.segments);

describe('compiled _redirects', () => {
  const rules = compile(
    [
      '/old /new',
      '/temp /elsewhere 302',
      '/see /other 303',
      '/keep /kept 307',
      '/perm /permanent 308',
      '/news/:year/:slug /blog/:year-:slug.html',
      '/docs/* https://docs.example.com/v2/:splat 302',
      '/with-query /target?from=old 301',
      '/with-hash /target#part 301',
      '/authors/c%C3%A9line /auteurs/céline 301',
      '/Case /case-sensitive 301',
      '/gone/* /gone.html 404',
      '/about /about-forced.html 200!',
      '/old /never-reached 302',
      '/app/* /app/index.html 200',
      '/* /index.html 200',
    ].join('\n'),
  );

  it.each([
    ['/old', '301 /new'],
    ['/old/', '301 /new'],
    ['/temp', '302 /elsewhere'],
    ['/see', '303 /other'],
    ['/keep', '307 /kept'],
    ['/perm', '308 /permanent'],
    ['/news/2024/hello', '301 /blog/2024-hello.html'],
    ['/news/2024/hello/', '301 /blog/2024-hello.html'],
    ['/news/2024/caf%C3%A9', '301 /blog/2024-caf%C3%A9.html'],
    ['/news/2024/a%3Fb', '301 /blog/2024-a%3Fb.html'],
    ['/docs', '302 https://docs.example.com/v2/'],
    ['/docs/guide/start', '302 https://docs.example.com/v2/guide/start'],
    ['/docs/a%20b/c', '302 https://docs.example.com/v2/a%20b/c'],
    ['/authors/c%C3%A9line', '301 /auteurs/c%C3%A9line'],
    ['/authors/céline', '301 /auteurs/c%C3%A9line'],
    ['/Case', '301 /case-sensitive'],
    ['/gone/page', '404 file /gone.html'],
    ['/app/settings/profile', '200 file /app/index.html'],
    ['/anything/else', '200 file /index.html'],
    ['/', '200 file /index.html'],
  ])('%s → %s', (url, expected) => {
    expect(answer(rules, url)).toBe(expected);
  });

  it('passes the query string on to a redirect whose TO has none, before its fragment', () => {
    expect(answer(rules, '/old?utm=x&y=1')).toBe('301 /new?utm=x&y=1');
    expect(answer(rules, '/docs/a?q=1')).toBe('302 https://docs.example.com/v2/a?q=1');
    expect(answer(rules, '/with-query?utm=x')).toBe('301 /target?from=old');
    expect(answer(rules, '/with-hash?utm=x')).toBe('301 /target?utm=x#part');
    // A query string never decides which rule matches.
    expect(answer(rules, '/temp?/old')).toBe('302 /elsewhere?/old');
  });

  it('compares paths case and all, after decoding', () => {
    expect(answer(rules, '/case')).toBe('200 file /index.html');
    expect(answer(rules, '/OLD')).toBe('200 file /index.html');
    expect(answer(rules, '/%6Fld')).toBe('301 /new');
  });

  it('takes the first matching rule', () => {
    expect(answer(compile('/a/* /first 302\n/a/b /second 302\n'), '/a/b')).toBe('302 /first');
    expect(answer(compile('/a/b /first 302\n/a/* /second 302\n'), '/a/b')).toBe('302 /first');
    expect(answer(compile('/:x/b /first 302\n/a/:y /second 302\n'), '/a/b')).toBe('302 /first');
    expect(answer(compile('/a/:y /first 302\n/:x/b /second 302\n'), '/a/b')).toBe('302 /first');
  });

  it('lets a file answer unless the rule has !', () => {
    expect(answer(rules, '/old', true)).toBeNull();
    expect(answer(rules, '/anything', true)).toBeNull();
    expect(answer(rules, '/about', true)).toBe('200 file /about-forced.html');
    expect(answer(rules, '/about', false)).toBe('200 file /about-forced.html');
  });

  it('never sees a path that is not the site\'s: .., encoded .., NUL', () => {
    for (const path of ['/../x', '/a/%2e%2e/b', '/a%00', '/a//b', '/.env']) expect(answer(rules, path)).toBe('not a site path');
  });

  it('fills a placeholder with its segment encoded, so a captured value cannot add segments or leave the site', () => {
    const open = compile('/go/:where /:where 302\n/r/* /:splat 302\n');
    expect(answer(open, '/go/javascript%3Aalert(1)')).toBe('302 /javascript%3Aalert(1)');
    expect(answer(open, '/go/%2F%2Fevil.example')).toBe('not a site path');
    expect(answer(open, '/go/a%3Fb%23c')).toBe('302 /a%3Fb%23c');
    expect(answer(open, '/r/x/y')).toBe('302 /x/y');
  });

  it('finds the first of 2,000 rules by the path alone', () => {
    const many = compile([...Array.from({ length: 1_999 }, (_, index) => `/s${index}/:p /m${index}/:p`), '/* /index.html 200'].join('\n'));
    expect(many.counts).toEqual({ redirects: 2_000, headers: 0 });
    expect(answer(many, '/s1500/page')).toBe('301 /m1500/page');
    expect(answer(many, '/s1500/page/deeper')).toBe('200 file /index.html');
    expect(answer(many, '/elsewhere')).toBe('200 file /index.html');
  });
});

describe('compiled _headers', () => {
  const rules = compile(
    '',
    ['/*', '  X-Frame-Options: DENY', '  Cache-Control: public', '/blog/:slug', '  Cache-Control: max-age=60', '  X-Blog: yes', '/blog/*', '  X-Blog: all', '/other', '  X-Other: 1'].join('\n'),
  );

  it('applies every matching block in file order, joining the values of one name', () => {
    expect(headersOf(rules, '/blog/post')).toEqual([
      ['x-frame-options', 'DENY'],
      ['cache-control', 'public, max-age=60'],
      ['x-blog', 'yes, all'],
    ]);
    expect(headersOf(rules, '/blog/post/')).toEqual(headersOf(rules, '/blog/post'));
    expect(headersOf(rules, '/blog')).toEqual([
      ['x-frame-options', 'DENY'],
      ['cache-control', 'public'],
      ['x-blog', 'all'],
    ]);
    expect(headersOf(rules, '/')).toEqual([
      ['x-frame-options', 'DENY'],
      ['cache-control', 'public'],
    ]);
    expect(headersOf(compile(''), '/x')).toEqual([]);
  });

  it('answers the same for a path asked for again, however many other paths came between', () => {
    const first = headersOf(rules, '/blog/post');
    for (let index = 0; index < 2_500; index += 1) expect(headersOf(rules, `/blog/post-${index}`)).toEqual(first);
    expect(headersOf(rules, '/other')).toEqual([['x-frame-options', 'DENY'], ['cache-control', 'public'], ['x-other', '1']]);
    expect(headersOf(rules, '/blog/post')).toEqual(first);
  });
});
