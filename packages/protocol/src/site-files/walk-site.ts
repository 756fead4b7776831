import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { byPath, SkipRules, type SkippedPath } from './skip-rules.js';

/** One file of a site's folder that a deploy takes. */
export interface SiteEntry {
  /** Relative, `/`-separated. */
  readonly path: string;
  /** Where it is on disk. */
  readonly absolute: string;
  readonly size: number;
}

export interface WalkSiteOptions {
  /** Folders inside the site's folder that hold svc's own state (absolute, or relative to it). */
  readonly stateFolders?: readonly string[] | undefined;
}

/**
 * The files of the site's folder `root` that a deploy takes, and what it skips
 * (docs/hosting.md#what-is-never-uploaded): the rules of {@link SkipRules} with the root's
 * `.svcignore`; a symbolic link is followed only to a file inside `root`. Skipped folders are
 * not entered. Nothing is written. Both lists come back sorted by path.
 */
export async function walkSite(root: string, options: WalkSiteOptions = {}): Promise<{ files: SiteEntry[]; skipped: SkippedPath[] }> {
  const realRoot = await realpath(root);
  const svcignore = await readFile(join(root, '.svcignore'), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'EISDIR') return null;
    throw error;
  });
  const stateFolders = (options.stateFolders ?? []).map((folder) => relativeInside(root, folder)).filter((folder): folder is string => folder !== null);
  const rules = new SkipRules({ svcignore, stateFolders });
  const files: SiteEntry[] = [];
  const skipped: SkippedPath[] = [];
  const inside = async (link: string): Promise<boolean> => {
    const target = await realpath(link).catch(() => null);
    return target !== null && target.startsWith(`${realRoot}${sep}`);
  };

  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries) {
      const absolute = join(folder, entry.name);
      const path = relative(root, absolute).split(sep).join('/');
      const linked = entry.isSymbolicLink() ? await stat(absolute).catch(() => null) : null;
      const isFolder = entry.isDirectory() || linked?.isDirectory() === true;
      const reason = rules.entry(path, isFolder);
      if (reason !== null) {
        skipped.push({ path: isFolder ? `${path}/` : path, reason });
      } else if (entry.isSymbolicLink()) {
        // A link to a file inside the site is followed; links to folders (loops), outside or to nothing are not.
        if (linked?.isFile() === true && (await inside(absolute))) files.push({ path, absolute, size: linked.size });
        else skipped.push({ path: isFolder ? `${path}/` : path, reason: 'symlink' });
      } else if (entry.isDirectory()) {
        await walk(absolute);
      } else if (entry.isFile()) {
        files.push({ path, absolute, size: (await stat(absolute)).size });
      }
    }
  };
  await walk(root);
  return { files: files.sort((a, b) => byPath(a.path, b.path)), skipped: skipped.sort((a, b) => byPath(a.path, b.path)) };
}

/** `folder` as a relative `/`-separated path inside `root`, or null when it is not inside. */
function relativeInside(root: string, folder: string): string | null {
  const path = relative(resolve(root), resolve(root, folder));
  if (path === '' || path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path)) return null;
  return path.split(sep).join('/');
}
