import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.js';
import { parsePathPattern } from './path-pattern.js';
import { parseRedirects } from './redirects-file.js';

const text = (value: string) => new TextEncoder().encode(value);
const parse = (value: string) => parseRedirects(text(value));
const failure = (value: string | Uint8Array, size?: number): string => {
  try {
    parseRedirects(typeof value === 'string' ? text(value) : value, size);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('validation_failed');
    return (error as ServiceError).message;
  }
  throw new Error('parsed');
};

describe('path patterns', () => {
  it('reads literals (decoded), placeholders and a final splat; a trailing / is ignored', () => {
    expect(parsePathPattern('/blog/:year/:slug/')).toEqual({ source: '/blog/:year/:slug/', segments: [{ literal: 'blog' }, { param: 'year' }, { param: 'slug' }], splat: false });
    expect(parsePathPattern('/news/*')).toMatchObject({ segments: [{ literal: 'news' }], splat: true });
    expect(parsePathPattern('/*')).toMatchObject({ segments: [], splat: true });
    expect(parsePathPattern('/')).toMatchObject({ segments: [], splat: false });
    expect(parsePathPattern('/authors/c%C3%A9line')).toMatchObject({ segments: [{ literal: 'authors' }, { literal: 'céline' }] });
    expect(parsePathPattern('/Caf%c3%a9:menu')).toMatchObject({ segments: [{ literal: 'Café:menu' }] });
  });

  it.each([
    ['news', 'must be a path starting with / (news)'],
    ['https://old.example.com/*', 'must be a path (https://old.example.com/* names a host; rules apply to every hostname of the site alike)'],
    ['//x', 'must start with a single /'],
    ['/a/*/b', 'has a * before its end: * is taken only as the last segment (/news/*)'],
    ['/news*', 'has news*: * is taken only as a whole last segment (/news/*)'],
    ['/*.js', 'has *.js: * is taken only as a whole last segment (/news/*)'],
    ['/a//b', 'has an empty segment (//)'],
    ['/a/../b', 'has a . or .. segment, which no request path has'],
    ['/a/%2e%2e/b', 'has a . or .. segment, which no request path has'],
    ['/a%2Fb', "has a%2Fb, an encoded / (%2F), which splits a request's path"],
    ['/a%zz', 'has malformed percent-encoding in a%zz'],
    ['/a%00', 'encodes a control character (U+0000)'],
    ['/a?x=1', 'holds a query string (?…): a rule matches the path alone'],
    ['/a\\b', 'holds a backslash; paths use /'],
    ['/:x-y', 'has :x-y: a placeholder is a whole segment named with letters, digits and _ (:slug)'],
    ['/:splat', 'has :splat, the name of what a final * captures: name the placeholder otherwise'],
    ['/:a/:a', 'has :a twice'],
  ])('refuses %j: %s', (source, why) => {
    expect(parsePathPattern(source)).toBe(why);
  });
});

describe('_redirects', () => {
  it('reads every kind of rule, 301 by default, comments and blank lines skipped', () => {
    const rules = parse(
      [
        '# moved pages',
        '/old /new',
        '/temp   /elsewhere\t302',
        '/see /other 303   # a comment after the rule',
        '',
        '/keep /kept 307',
        '/perm /permanent 308',
        '/app/* /app/index.html 200',
        '/gone/* /gone.html 404',
        '/news/:year/:slug /blog/:year-:slug.html 301!',
        '/docs/* https://docs.example.com/v2/:splat 302',
        '\r',
      ].join('\r\n'),
    );
    expect(rules.map((rule) => [rule.line, rule.from.source, rule.to.source, rule.status, rule.force])).toEqual([
      [2, '/old', '/new', 301, false],
      [3, '/temp', '/elsewhere', 302, false],
      [4, '/see', '/other', 303, false],
      [6, '/keep', '/kept', 307, false],
      [7, '/perm', '/permanent', 308, false],
      [8, '/app/*', '/app/index.html', 200, false],
      [9, '/gone/*', '/gone.html', 404, false],
      [10, '/news/:year/:slug', '/blog/:year-:slug.html', 301, true],
      [11, '/docs/*', 'https://docs.example.com/v2/:splat', 302, false],
    ]);
    expect(rules[7]!.to.parts).toEqual([{ text: '/blog/' }, { name: 'year' }, { text: '-' }, { name: 'slug' }, { text: '.html' }]);
    expect(rules[8]!.to).toEqual({ source: 'https://docs.example.com/v2/:splat', absolute: true, parts: [{ text: 'https://docs.example.com' }, { text: '/v2/' }, { name: 'splat' }] });
  });

  it('keeps TO sendable: characters past ASCII percent-encoded, a port in an absolute URL not read as a placeholder', () => {
    const [rule, port] = parse('/authors/céline /auteurs/céline?x=ü\n/x https://example.com:8443/y 302\n');
    expect(rule!.to.parts).toEqual([{ text: '/auteurs/c%C3%A9line?x=%C3%BC' }]);
    expect(port!.to.parts).toEqual([{ text: 'https://example.com:8443' }, { text: '/y' }]);
  });

  it('reads a file with a byte order mark, and an empty file as no rules', () => {
    expect(parse('\ufeff/a /b\n')).toHaveLength(1);
    expect(parse('')).toEqual([]);
    expect(parse('# only comments\n\n')).toEqual([]);
  });

  it.each([
    ['/a', '_redirects:1: has no TO: a rule is FROM TO [STATUS] (/a)'],
    ['/a 301', '_redirects:1: has no TO before its status 301: a rule is FROM TO [STATUS]'],
    ['/a /b 418', '_redirects:1: has the status 418, which is not taken: 301, 302, 303, 307, 308, 200 or 404'],
    ['/a /b 30x', '_redirects:1: has 30x where its status goes: 301, 302, 303, 307, 308, 200 or 404, with ! to apply where a file exists'],
    ['/a /b !', '_redirects:1: has ! where its status goes: 301, 302, 303, 307, 308, 200 or 404, with ! to apply where a file exists'],
    ['/a /b 301 extra', '_redirects:1: has extra after its status: a rule is FROM TO [STATUS][!]'],
    ['/a /b 302 Country=au,nz', '_redirects:1: has the condition Country=au,nz: conditions (Country, Language, Role, Cookie) are not supported, and a rule with one would apply to everyone'],
    ['/admin/* /admin/:splat 200! Role=admin', '_redirects:1: has the condition Role=admin: conditions (Country, Language, Role, Cookie) are not supported, and a rule with one would apply to everyone'],
    ['/store id=:id /blog/:id 301', '_redirects:1: matches a query parameter (id=:id), which is not supported: FROM is a path alone'],
    ['/api/* https://api.example.com/:splat 200', '_redirects:1: TO is an absolute URL, taken only with a redirect status (301, 302, 303, 307, 308): rules never fetch another site (https://api.example.com/:splat)'],
    ['/x https://example.com/ 404', '_redirects:1: TO is an absolute URL, taken only with a redirect status (301, 302, 303, 307, 308): rules never fetch another site (https://example.com/)'],
    ['/x //evil.example.com/', '_redirects:1: TO starts with //, which leaves the site: write https://… for another site'],
    ['/x javascript:alert(1)', '_redirects:1: TO must be a path starting with / or an http:// or https:// URL (javascript:alert(1))'],
    ['/x ftp://example.com/', '_redirects:1: TO must be a path starting with / or an http:// or https:// URL (ftp://example.com/)'],
    ['/x elsewhere', '_redirects:1: TO must be a path starting with / or an http:// or https:// URL (elsewhere)'],
    ['/x https://user:pw@example.com/', '_redirects:1: TO must not carry a user or password'],
    ['/:sub https://:sub.example.com/', '_redirects:1: TO cannot take a placeholder in its host'],
    ['/x https://exa mple', '_redirects:1: has mple where its status goes: 301, 302, 303, 307, 308, 200 or 404, with ! to apply where a file exists'],
    ['/x https://a.example/ 301 more', '_redirects:1: has more after its status: a rule is FROM TO [STATUS][!]'],
    ['/x https://exa%mple.com/ 301', '_redirects:1: TO is not a valid URL (https://exa%mple.com/)'],
    ['/x /y/:slug', '_redirects:1: TO uses :slug, which FROM does not capture'],
    ['/x /y/:splat', '_redirects:1: TO uses :splat, but FROM does not end with *'],
    ['/x /a/../b 200', '_redirects:1: TO has an empty, . or .. segment'],
    ['/x /a//b', '_redirects:1: TO has an empty, . or .. segment'],
    ['/x /a%zz', '_redirects:1: TO has malformed percent-encoding'],
    ['/x /a\\b', '_redirects:1: TO holds a backslash; paths use /'],
    ['news /b', '_redirects:1: FROM must be a path starting with / (news)'],
    ['/a\u0000 /b', '_redirects:1: holds a control character (U+0000)'],
    ['/a /b\u001b[2J', '_redirects:1: holds a control character (U+001B)'],
  ])('refuses %j', (line, message) => {
    expect(failure(`${line}\n`)).toBe(message);
  });

  it('names the line: comments and blank lines count', () => {
    expect(failure('# header\n\n/fine /ok\n/broken\n')).toBe('_redirects:4: has no TO: a rule is FROM TO [STATUS] (/broken)');
  });

  it('holds its limits: 2,000 rules, 1,000 characters a line, 64 KiB, UTF-8', () => {
    const many = Array.from({ length: 2_000 }, (_, index) => `/r${index} /t${index}`);
    expect(parse(many.join('\n'))).toHaveLength(2_000);
    expect(failure([...many, '/r2000 /t2000'].join('\n'))).toBe('_redirects:2001: is rule 2001; a _redirects file holds at most 2,000 rules');
    expect(failure(`/a /b\n/${'x'.repeat(997)} /c\n`)).toBe('_redirects:2: is 1001 characters long; a line of _redirects is at most 1,000');
    expect(parse(`/${'x'.repeat(996)} /c`)).toHaveLength(1);
    const big = text(`${'# padding\n'.repeat(6_600)}/a /b\n`);
    expect(big.length).toBeGreaterThan(64 * 1024);
    expect(failure(big)).toBe('_redirects:6554: the file is 64.5 KiB, past its limit of 64.0 KiB here');
    // Only the start of a larger file read: the size given is the file's.
    expect(failure(big.subarray(0, 64 * 1024 + 1), 5 * 1024 * 1024)).toBe('_redirects:6554: the file is 5.0 MiB, past its limit of 64.0 KiB here');
    expect(failure(new Uint8Array([0x2f, 0x61, 0x20, 0x2f, 0x62, 0x0a, 0x2f, 0xff, 0x20, 0x2f, 0x63]))).toBe('_redirects:2: is not UTF-8 text');
  });
});
