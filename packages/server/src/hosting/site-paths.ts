import { neverDeployed } from '@svc/protocol/site-files';
import { siteRulesFiles } from '@svc/protocol/site-rules';

/** A request's path, decoded: its segments (none for `/`) and whether it ended with `/`. */
export interface SitePath {
  readonly segments: readonly string[];
  readonly directory: boolean;
}

/**
 * A request path decoded, or null for one that is not a clean relative path once decoded
 * (`..`, `.`, empty segments, backslashes, NUL, bad percent-encoding): it is 404, and nothing
 * outside the deploy can ever be named, since paths are keys, not files. Null too for what a
 * deploy never uploads (`/.npmrc`, `/node_modules/…`), which deploys made before that rule
 * may still list. Rules (`_redirects`, `_headers`) match these segments.
 */
export function sitePath(urlPath: string): SitePath | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (!decoded.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(decoded)) return null;
  const relative = decoded.slice(1);
  if (relative === '') return { segments: [], directory: true };
  const directory = relative.endsWith('/');
  const segments = (directory ? relative.slice(0, -1) : relative).split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return null;
  if (neverDeployed(segments.join('/')) !== null) return null;
  return { segments, directory };
}

/**
 * The paths of a deploy's files to try for a request path, in order (docs/hosting.md):
 * the file itself, then clean URLs (`/about` → `about.html`, `about/index.html`), and
 * `index.html` for a directory. The root's `_redirects` and `_headers` are the deploy's
 * rules, never served as files.
 */
export function candidateFiles(path: SitePath): string[] {
  if (path.segments.length === 0) return ['index.html'];
  const joined = path.segments.join('/');
  if (path.directory) return [`${joined}/index.html`];
  if (joined.endsWith('.html')) return [joined];
  return [...(ruleFiles.has(joined) ? [] : [joined]), `${joined}.html`, `${joined}/index.html`];
}

/** The files to try for a request path, or null when it can name none (see {@link sitePath}). */
export function candidatePaths(urlPath: string): string[] | null {
  const path = sitePath(urlPath);
  return path === null ? null : candidateFiles(path);
}

const ruleFiles: ReadonlySet<string> = new Set(siteRulesFiles);

/**
 * The `cache-control` of a file served with `contentType` (docs/hosting.md): a year,
 * `immutable`, for names that carry a content hash; revalidated on every use for everything
 * else. HTML never gets the year, whatever its name (`page-20240115.html` carries a date,
 * not a hash, and a page's address must show its new version at once; the widget's tag
 * inserted into it changes too).
 */
export function cacheControl(path: string, contentType: string): string {
  const html = /^(text\/html|application\/xhtml\+xml)\b/i.test(contentType);
  return !html && isContentHashed(path) ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate';
}

/**
 * Names built tools give assets by their content (`app.3f9a1c2b.js`, `index-BxK2a9Qd.css`,
 * `_next/static/…`): safe to cache for a year, since a change makes a new name.
 */
export function isContentHashed(path: string): boolean {
  if (path.startsWith('_next/static/') || path.startsWith('_astro/')) return true;
  const name = path.slice(path.lastIndexOf('/') + 1);
  return /[.-][A-Za-z0-9_]{8,}\.[a-z0-9]+$/.test(name) && /\d/.test(name.replace(/\.[a-z0-9]+$/, '').slice(-12));
}
