import { parsePathPattern, type PathPattern } from './path-pattern.js';
import { codePoint, controlCharacter, ruleLines, siteRulesError, siteRulesLimits } from './rule-lines.js';

/** One block of `_headers`: a path pattern, then the headers it sets (names in lower case, in file order). */
export interface HeaderBlock {
  readonly line: number;
  readonly path: PathPattern;
  readonly headers: readonly (readonly [name: string, value: string])[];
}

/** A header name (RFC 9110's token). */
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Names a site may not set, and why (docs/hosting.md#headers). */
const refusedNames: Readonly<Record<string, string>> = {
  'set-cookie': 'a site served here never sets cookies through _headers',
  connection: 'it is hop-by-hop, the connection\'s and not the site\'s',
  'keep-alive': 'it is hop-by-hop, the connection\'s and not the site\'s',
  te: 'it is hop-by-hop, the connection\'s and not the site\'s',
  trailer: 'it is hop-by-hop, the connection\'s and not the site\'s',
  'transfer-encoding': 'it frames the answer, which is the service\'s to do',
  upgrade: 'it is hop-by-hop, the connection\'s and not the site\'s',
  'content-length': 'it frames the answer, which is the service\'s to do',
  'content-encoding': 'it says how the bytes sent are encoded, which is the service\'s to say',
  host: 'it is a request header',
};

/**
 * `_headers` in Netlify's format as docs/hosting.md#headers takes it: a path
 * pattern on a line of its own, then its `Name: value` lines, indented; `#` comment lines.
 * The first line that does not parse, a refused name or value, or a limit passed throws
 * `validation_failed` with `_headers:LINE: why`. `size` is the file's size when `bytes` is
 * only its start.
 */
export function parseHeaders(bytes: Uint8Array, size?: number): HeaderBlock[] {
  const blocks: { line: number; path: PathPattern; headers: (readonly [string, string])[] }[] = [];
  const finish = (): void => {
    const last = blocks[blocks.length - 1];
    if (last !== undefined && last.headers.length === 0) {
      throw siteRulesError('_headers', last.line, `${last.path.source} sets no header: indent its Name: value lines under it`);
    }
  };
  for (const { number, text } of ruleLines('_headers', bytes, size)) {
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const fail = (why: string) => siteRulesError('_headers', number, why);
    if (/^[ \t]/.test(text)) {
      const block = blocks[blocks.length - 1];
      if (block === undefined) throw fail('is indented before any path: a block starts with a path line such as /*');
      const header = parseHeader(trimmed);
      if (typeof header === 'string') throw fail(header);
      block.headers.push(header);
      continue;
    }
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/.test(trimmed) && !/^[a-z]+:\/\//i.test(trimmed)) {
      throw fail(`is a header line that is not indented: indent ${trimmed.slice(0, trimmed.indexOf(':'))} under its path`);
    }
    finish();
    if (/\s/.test(trimmed)) throw fail('holds more than a path: a path line is one path, and its headers go on indented lines below it');
    const path = parsePathPattern(trimmed);
    if (typeof path === 'string') throw fail(`the path ${path}`);
    if (blocks.length === siteRulesLimits._headers.entries) {
      throw fail(`starts block ${blocks.length + 1}; a _headers file holds at most ${siteRulesLimits._headers.entries} blocks`);
    }
    blocks.push({ line: number, path, headers: [] });
  }
  finish();
  return blocks;
}

function parseHeader(text: string): readonly [string, string] | string {
  if (text.startsWith('!')) return 'removes a header (! Name, as Cloudflare Pages writes it), which is not supported';
  const colon = text.indexOf(':');
  if (colon === -1) return `is not Name: value (${text})`;
  const name = text.slice(0, colon).trim();
  if (!token.test(name)) return `has ${JSON.stringify(name)}, which is not a header name (letters, digits and !#$%&'*+-.^_\`|~)`;
  const lower = name.toLowerCase();
  const refused = refusedNames[lower];
  if (refused !== undefined) return `sets ${lower}, which a site may not set: ${refused}`;
  const value = text.slice(colon + 1).trim();
  const control = controlCharacter(value);
  if (control !== null) return `sets ${lower} to a value with a control character (${codePoint(control)})`;
  // eslint-disable-next-line no-control-regex -- any character past ASCII
  if (/[^\u0000-\u007f]/.test(value)) return `sets ${lower} to a value that is not ASCII: percent-encode it (or use RFC 8187's UTF-8'' form)`;
  return [lower, value];
}
