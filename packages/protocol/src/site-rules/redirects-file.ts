import { capturedNames, parsePathPattern, placeholderName, type PathPattern } from './path-pattern.js';
import { codePoint, controlCharacter, ruleLines, siteRulesError, siteRulesLimits } from './rule-lines.js';

/** What a rule answers with: a redirect, a rewrite (200, the file of TO under the path asked for) or TO's file as a 404. */
export type RedirectStatus = 200 | 301 | 302 | 303 | 307 | 308 | 404;

export const redirectStatuses: readonly RedirectStatus[] = [301, 302, 303, 307, 308, 200, 404];

/** A piece of TO: text as it is sent (ASCII, percent-encoded), or a placeholder to fill in. */
export type TargetPart = { readonly text: string } | { readonly name: string };

export interface RedirectTarget {
  /** As written in the file. */
  readonly source: string;
  /** An `http://` or `https://` URL (only with a 3xx status), else a path of the site. */
  readonly absolute: boolean;
  readonly parts: readonly TargetPart[];
}

/** One rule of `_redirects`: `FROM TO [STATUS][!]`. */
export interface RedirectRule {
  readonly line: number;
  readonly from: PathPattern;
  readonly to: RedirectTarget;
  readonly status: RedirectStatus;
  /** `!` after the status: the rule applies even where a file answers the path. */
  readonly force: boolean;
}

const statusList = '301, 302, 303, 307, 308, 200 or 404';

/**
 * `_redirects` in Netlify's format as docs/hosting.md#redirects takes it:
 * `FROM TO [STATUS][!]` per line, `#` comments (a whole line, or from a word that starts
 * with `#`). The first line that does not parse, or the limit it passes, throws
 * `validation_failed` with `_redirects:LINE: why`. `size` is the file's size when `bytes`
 * is only its start (a file over the limit need not be read whole).
 */
export function parseRedirects(bytes: Uint8Array, size?: number): RedirectRule[] {
  const rules: RedirectRule[] = [];
  for (const { number, text } of ruleLines('_redirects', bytes, size)) {
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const rule = parseRule(trimmed, number);
    if (typeof rule === 'string') throw siteRulesError('_redirects', number, rule);
    if (rules.length === siteRulesLimits._redirects.entries) {
      throw siteRulesError('_redirects', number, `is rule ${rules.length + 1}; a _redirects file holds at most ${siteRulesLimits._redirects.entries.toLocaleString('en-US')} rules`);
    }
    rules.push(rule);
  }
  return rules;
}

function parseRule(text: string, line: number): RedirectRule | string {
  const control = controlCharacter(text.replace(/\t/g, ' '));
  if (control !== null) return `holds a control character (${codePoint(control)})`;
  const words = text.split(/[ \t]+/);
  const comment = words.findIndex((word) => word.startsWith('#'));
  if (comment !== -1) words.length = comment;
  const [fromText, toText, statusText, ...extra] = words as [string, string | undefined, string | undefined, ...string[]];
  if (toText === undefined) return `has no TO: a rule is FROM TO [STATUS] (${fromText})`;
  if (/^\d{3}!?$/.test(toText)) return `has no TO before its status ${toText}: a rule is FROM TO [STATUS]`;
  if (/^[^/:]+=/.test(toText)) return `matches a query parameter (${toText}), which is not supported: FROM is a path alone`;
  const condition = [statusText, ...extra].find((word) => word?.includes('='));
  if (condition !== undefined) return `has the condition ${condition}: conditions (Country, Language, Role, Cookie) are not supported, and a rule with one would apply to everyone`;
  if (extra.length > 0) return `has ${extra[0]} after its status: a rule is FROM TO [STATUS][!]`;
  const from = parsePathPattern(fromText);
  if (typeof from === 'string') return `FROM ${from}`;
  const parsedStatus = statusText === undefined ? { status: 301 as RedirectStatus, force: false } : parseStatus(statusText);
  if (typeof parsedStatus === 'string') return parsedStatus;
  const to = parseTarget(toText, from, parsedStatus.status);
  if (typeof to === 'string') return `TO ${to}`;
  return { line, from, to, ...parsedStatus };
}

function parseStatus(text: string): { status: RedirectStatus; force: boolean } | string {
  const match = /^(\d{3})(!?)$/.exec(text);
  if (match === null) return `has ${text} where its status goes: ${statusList}, with ! to apply where a file exists`;
  const status = Number(match[1]) as RedirectStatus;
  if (!redirectStatuses.includes(status)) return `has the status ${status}, which is not taken: ${statusList}`;
  return { status, force: match[2] === '!' };
}

function parseTarget(source: string, from: PathPattern, status: RedirectStatus): RedirectTarget | string {
  const redirect = status !== 200 && status !== 404;
  let prefix = '';
  let rest = source;
  if (/^https?:\/\//i.test(source)) {
    if (!redirect) return `is an absolute URL, taken only with a redirect status (301, 302, 303, 307, 308): rules never fetch another site (${source})`;
    prefix = /^https?:\/\/[^/?#]*/i.exec(source)![0];
    const authority = prefix.slice(prefix.indexOf('//') + 2);
    if (authority.includes('@')) return 'must not carry a user or password';
    if (/:[A-Za-z_]/.test(authority)) return 'cannot take a placeholder in its host';
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      return `is not a valid URL (${source})`;
    }
    if (url.hostname === '') return `has no host (${source})`;
    rest = source.slice(prefix.length);
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(source)) {
    return `must be a path starting with / or an http:// or https:// URL (${source})`;
  } else {
    if (!source.startsWith('/')) return `must be a path starting with / or an http:// or https:// URL (${source})`;
    if (source.startsWith('//')) return 'starts with //, which leaves the site: write https://… for another site';
    if (source.includes('\\')) return 'holds a backslash; paths use /';
  }
  const captured = capturedNames(from);
  const parts: TargetPart[] = prefix === '' ? [] : [{ text: asciiUrlText(prefix) }];
  let at = 0;
  for (const match of rest.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const name = match[1]!;
    if (!placeholderName.test(name)) continue;
    if (!captured.has(name)) return name === 'splat' ? 'uses :splat, but FROM does not end with *' : `uses :${name}, which FROM does not capture`;
    if (match.index > at) parts.push({ text: asciiUrlText(rest.slice(at, match.index)) });
    parts.push({ name });
    at = match.index + match[0].length;
  }
  if (at < rest.length) parts.push({ text: asciiUrlText(rest.slice(at)) });
  if (prefix === '') {
    const path = rest.split(/[?#]/)[0]!.replace(/:[A-Za-z_][A-Za-z0-9_]*/g, 'x');
    const segments = path.slice(1).split('/');
    if (segments.slice(0, -1).some((segment) => segment === '') || segments.some((segment) => segment === '.' || segment === '..')) {
      return 'has an empty, . or .. segment';
    }
    try {
      decodeURI(path);
    } catch {
      return 'has malformed percent-encoding';
    }
  }
  return { source, absolute: prefix !== '', parts };
}

/** Text of a URL with every character that may not stand in a `location` header percent-encoded (UTF-8). */
function asciiUrlText(text: string): string {
  if (/^[\x21-\x7e]*$/.test(text)) return text;
  let out = '';
  for (const character of text) out += /^[\x21-\x7e]$/.test(character) ? character : encodeURIComponent(character);
  return out;
}
