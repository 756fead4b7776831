import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.js';
import { parseHeaders } from './headers-file.js';
import { readSiteRules, siteEntriesReader } from './read-site-rules.js';

const text = (value: string) => new TextEncoder().encode(value);
const failure = (value: string): string => {
  try {
    parseHeaders(text(value));
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return (error as ServiceError).message;
  }
  throw new Error('parsed');
};

describe('_headers', () => {
  it('reads blocks of a path and its indented headers, names in lower case, in file order', () => {
    const blocks = parseHeaders(
      text(['# every page', '/*', '  X-Frame-Options: DENY', '\tReferrer-Policy:   same-origin  ', '', '/blog/:slug', '  # a comment inside a block', '  Cache-Control: public, max-age=60', '  Cache-Control: stale-while-revalidate=30', '  X-Empty:'].join('\n')),
    );
    expect(blocks.map((block) => [block.line, block.path.source, block.headers])).toEqual([
      [2, '/*', [['x-frame-options', 'DENY'], ['referrer-policy', 'same-origin']]],
      [6, '/blog/:slug', [['cache-control', 'public, max-age=60'], ['cache-control', 'stale-while-revalidate=30'], ['x-empty', '']]],
    ]);
  });

  it.each(['Set-Cookie', 'set-cookie', 'Connection', 'Content-Length', 'content-encoding', 'Keep-Alive', 'TE', 'Trailer', 'Transfer-Encoding', 'Upgrade', 'Host'])('refuses %s, naming the line', (name) => {
    expect(failure(`/*\n  X-Fine: yes\n  ${name}: x\n`)).toMatch(new RegExp(`^_headers:3: sets ${name.toLowerCase()}, which a site may not set: `));
  });

  it.each([
    ['  X-A: b\n', '_headers:1: is indented before any path: a block starts with a path line such as /*'],
    ['/*\nX-Frame-Options: DENY\n', '_headers:2: is a header line that is not indented: indent X-Frame-Options under its path'],
    ['/*\n  X-A: b\n/empty\n/other\n  X-B: c\n', '_headers:3: /empty sets no header: indent its Name: value lines under it'],
    ['/*\n  X-A: b\n/last\n', '_headers:3: /last sets no header: indent its Name: value lines under it'],
    ['/a /b\n  X-A: b\n', '_headers:1: holds more than a path: a path line is one path, and its headers go on indented lines below it'],
    ['https://example.com/*\n  X-A: b\n', '_headers:1: the path must be a path (https://example.com/* names a host; rules apply to every hostname of the site alike)'],
    ['/*.js\n  X-A: b\n', '_headers:1: the path has *.js: * is taken only as a whole last segment (/news/*)'],
    ['/*\n  X-A b\n', '_headers:2: is not Name: value (X-A b)'],
    ['/*\n  X A: b\n', '_headers:2: has "X A", which is not a header name (letters, digits and !#$%&\'*+-.^_`|~)'],
    ['/*\n  X(A): b\n', '_headers:2: has "X(A)", which is not a header name (letters, digits and !#$%&\'*+-.^_`|~)'],
    ['/*\n  : b\n', '_headers:2: has "", which is not a header name (letters, digits and !#$%&\'*+-.^_`|~)'],
    ['/*\n  ! X-Robots-Tag\n', '_headers:2: removes a header (! Name, as Cloudflare Pages writes it), which is not supported'],
    ['/*\n  X-A: a\u0000b\n', '_headers:2: sets x-a to a value with a control character (U+0000)'],
    ['/*\n  X-A: a\tb\n', '_headers:2: sets x-a to a value with a control character (U+0009)'],
    ['/*\n  X-A: a\u001bb\n', '_headers:2: sets x-a to a value with a control character (U+001B)'],
    ['/*\n  X-A: a\rb\n', '_headers:2: sets x-a to a value with a control character (U+000D)'],
    ['/*\n  Content-Disposition: attachment; filename="café.pdf"\n', '_headers:2: sets content-disposition to a value that is not ASCII: percent-encode it (or use RFC 8187\'s UTF-8\'\' form)'],
  ])('refuses %j', (file, message) => {
    expect(failure(file)).toBe(message);
  });

  it('holds its limits: 100 blocks, 2,000 characters a line', () => {
    const blocks = Array.from({ length: 100 }, (_, index) => `/p${index}\n  X-N: ${index}`);
    expect(parseHeaders(text(blocks.join('\n')))).toHaveLength(100);
    expect(failure([...blocks, '/p100\n  X-N: 100'].join('\n'))).toBe('_headers:201: starts block 101; a _headers file holds at most 100 blocks');
    expect(failure(`/*\n  Content-Security-Policy: ${'a'.repeat(2_000 - 26)}\n`)).toBe('_headers:2: is 2001 characters long; a line of _headers is at most 2,000');
    expect(parseHeaders(text(`/*\n  Content-Security-Policy: ${'a'.repeat(2_000 - 27)}\n`))).toHaveLength(1);
  });
});

describe('the rules files of a folder', () => {
  it('reads _redirects and _headers from the files a deploy takes, and nothing when there are none', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'svc-rules-'));
    try {
      await writeFile(join(folder, '_redirects'), '/a /b 302\n');
      await writeFile(join(folder, '_headers'), '/*\n  X-A: b\n');
      const entries = ['_redirects', '_headers'].map((path) => ({ path, absolute: join(folder, path) }));
      const rules = await readSiteRules(siteEntriesReader(entries));
      expect([rules.redirects.length, rules.headers.length]).toEqual([1, 1]);
      expect(await readSiteRules(siteEntriesReader([]))).toEqual({ redirects: [], headers: [] });
      // A _redirects past its limit is read only to it, and named by the line where it passes it.
      await writeFile(join(folder, '_redirects'), '/a /b\n'.repeat(20_000));
      await expect(readSiteRules(siteEntriesReader(entries))).rejects.toThrow('_redirects:10923: the file is 117.2 KiB, past its limit of 64.0 KiB here');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
