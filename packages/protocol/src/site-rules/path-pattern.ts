import { codePoint, controlCharacter } from './rule-lines.js';

/** One segment of a path pattern: text to match exactly (decoded), or a `:name` placeholder. */
export type PatternSegment = { readonly literal: string } | { readonly param: string };

/**
 * A path pattern of `_redirects` (FROM) and `_headers` (a block's path): segments, and
 * whether a final `*` takes the rest of the path (`:splat`). A trailing `/` is ignored, as
 * it is in a request's path (docs/hosting.md#redirects-and-headers).
 */
export interface PathPattern {
  /** As written in the file. */
  readonly source: string;
  readonly segments: readonly PatternSegment[];
  readonly splat: boolean;
}

/** What a placeholder may be called: `:slug`, `:year`, `:post_id`. */
export const placeholderName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A pattern as written (`/blog/:year/:slug`, `/news/*`, `/`), or what is wrong with it. A
 * literal segment is compared with the request's decoded segment, exactly (case counts):
 * `%C3%A9` and `é` are the same segment.
 */
export function parsePathPattern(source: string): PathPattern | string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) return `must be a path (${source} names a host; rules apply to every hostname of the site alike)`;
  if (!source.startsWith('/')) return `must be a path starting with / (${source})`;
  if (source.startsWith('//')) return 'must start with a single /';
  const control = controlCharacter(source);
  if (control !== null) return `holds a control character (${codePoint(control)})`;
  if (source.includes('\\')) return 'holds a backslash; paths use /';
  if (source.includes('?')) return 'holds a query string (?…): a rule matches the path alone';
  if (source.includes('#')) return 'holds a # (write %23 for one in a path)';
  const parts = source.slice(1).split('/');
  if (parts[parts.length - 1] === '') parts.pop();
  const segments: PatternSegment[] = [];
  const names = new Set<string>();
  let splat = false;
  for (const [index, part] of parts.entries()) {
    if (part === '*') {
      if (index !== parts.length - 1) return 'has a * before its end: * is taken only as the last segment (/news/*)';
      splat = true;
      continue;
    }
    if (part.includes('*')) return `has ${part}: * is taken only as a whole last segment (/news/*)`;
    if (part === '') return 'has an empty segment (//)';
    if (part.startsWith(':')) {
      const name = part.slice(1);
      if (!placeholderName.test(name)) return `has ${part}: a placeholder is a whole segment named with letters, digits and _ (:slug)`;
      if (name === 'splat') return 'has :splat, the name of what a final * captures: name the placeholder otherwise';
      if (names.has(name)) return `has :${name} twice`;
      names.add(name);
      segments.push({ param: name });
      continue;
    }
    let literal: string;
    try {
      literal = decodeURIComponent(part);
    } catch {
      return `has malformed percent-encoding in ${part}`;
    }
    if (literal === '.' || literal === '..') return 'has a . or .. segment, which no request path has';
    if (literal.includes('/')) return `has ${part}, an encoded / (%2F), which splits a request's path`;
    const decodedControl = controlCharacter(literal);
    if (decodedControl !== null) return `encodes a control character (${codePoint(decodedControl)})`;
    segments.push({ literal });
  }
  return { source, segments, splat };
}

/** The placeholder names a pattern captures, `splat` included when it ends with `*`. */
export function capturedNames(pattern: PathPattern): Set<string> {
  const names = new Set<string>();
  for (const segment of pattern.segments) if ('param' in segment) names.add(segment.param);
  if (pattern.splat) names.add('splat');
  return names;
}
