import ignore, { type Ignore } from 'ignore';

/**
 * Why a path of a site's folder is not deployed (docs/hosting.md#what-is-never-uploaded):
 * - `hidden`: its name starts with `.` (`.git`, `.env`, `.npmrc`, …); only the root's
 *   `.well-known/` folder is deployed;
 * - `node_modules`, `service_json`: named so, at any depth;
 * - `svc_state`: svc's own state, the root's `.svc/` (`svc serve`'s default data folder) and
 *   the CLI's configuration folder when it lies inside the site's folder;
 * - `svcignore`: listed by the root's `.svcignore` (gitignore syntax);
 * - `symlink`: a symbolic link to a folder, to anything outside the site's folder, or to
 *   nothing.
 */
export type SkipReason = 'hidden' | 'node_modules' | 'service_json' | 'svc_state' | 'svcignore' | 'symlink';

export const skipReasons: readonly SkipReason[] = ['hidden', 'node_modules', 'service_json', 'svc_state', 'svcignore', 'symlink'];

/** A path left out of a deploy. */
export interface SkippedPath {
  /** Relative, `/`-separated; a folder ends with `/` and stands for everything in it. */
  readonly path: string;
  readonly reason: SkipReason;
}

export interface SkipRuleOptions {
  /** The text of `.svcignore` at the folder's root (gitignore syntax), when there is one. */
  readonly svcignore?: string | null | undefined;
  /** Folders inside the site's folder that hold svc's own state (relative, `/`-separated). */
  readonly stateFolders?: readonly string[] | undefined;
}

/**
 * The rules every deploy follows, from a laptop or built from git on the server: which
 * entries of a site's folder are never uploaded. Nothing in `.svcignore` can bring back what
 * the fixed rules leave out (a `!.env` line changes nothing).
 */
export class SkipRules {
  private readonly listed: Ignore | null;
  private readonly stateFolders: ReadonlySet<string>;

  constructor(options: SkipRuleOptions = {}) {
    const text = options.svcignore ?? null;
    this.listed = text === null || text.trim() === '' ? null : ignore().add(text);
    this.stateFolders = new Set((options.stateFolders ?? []).map((folder) => folder.replace(/\/+$/, '')).filter((folder) => folder !== ''));
  }

  /**
   * Why the entry at `path` is skipped by its own name, given that its parent folders are
   * deployed (a walk that does not enter skipped folders asks only this); null when it is
   * deployed.
   */
  entry(path: string, isFolder: boolean): SkipReason | null {
    const fixed = fixedReason(path, isFolder);
    if (fixed !== null) return fixed;
    if (isFolder && this.stateFolders.has(path)) return 'svc_state';
    if (this.listed?.ignores(isFolder ? `${path}/` : path)) return 'svcignore';
    return null;
  }

  /** Why the file at `path` is not deployed, by its own name or a parent folder's; null when it is. */
  file(path: string): SkippedPath | null {
    return firstSkipped(path, (prefix, isFolder) => this.entry(prefix, isFolder));
  }
}

/**
 * The fixed rules alone, for a file path a deploy declares: what no `.svcignore` could have
 * allowed. The server refuses a deploy that declares such a path.
 */
export function neverDeployed(path: string): SkippedPath | null {
  return firstSkipped(path, fixedReason);
}

/**
 * For a list of files (`git ls-files`, a manifest): the ones deployed and what is skipped,
 * a skipped folder once (`node_modules/`) however many files it holds. Paths are relative
 * and `/`-separated; both lists come back sorted.
 */
export function selectSiteFiles(paths: Iterable<string>, options: SkipRuleOptions = {}): { files: string[]; skipped: SkippedPath[] } {
  const rules = new SkipRules(options);
  const files: string[] = [];
  const skipped = new Map<string, SkippedPath>();
  for (const path of paths) {
    const hit = rules.file(path);
    if (hit === null) files.push(path);
    else skipped.set(hit.path, hit);
  }
  return { files: files.sort(byPath), skipped: [...skipped.values()].sort((a, b) => byPath(a.path, b.path)) };
}

/** Code-unit order: the same on every machine, whatever its locale. */
export function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function fixedReason(path: string, isFolder: boolean): SkipReason | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (path === '.svc') return 'svc_state';
  if (name.startsWith('.')) return path === '.well-known' && isFolder ? null : 'hidden';
  if (name === 'node_modules') return 'node_modules';
  if (name === 'service.json') return 'service_json';
  return null;
}

/** The outermost folder, or else the file itself, that `reason` skips. */
function firstSkipped(path: string, reason: (prefix: string, isFolder: boolean) => SkipReason | null): SkippedPath | null {
  const segments = path.split('/');
  for (let index = 0; index < segments.length; index += 1) {
    const prefix = segments.slice(0, index + 1).join('/');
    const isFolder = index < segments.length - 1;
    const found = reason(prefix, isFolder);
    if (found !== null) return { path: isFolder ? `${prefix}/` : prefix, reason: found };
  }
  return null;
}
