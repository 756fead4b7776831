import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ignore from 'ignore';

/** One file of the site as it will be deployed. */
export interface SiteFile {
  /** Relative, `/`-separated. */
  readonly path: string;
  /** Where it is on disk. */
  readonly absolute: string;
  readonly sha256: string;
  readonly size: number;
}

/**
 * Never uploaded, whatever `.svcignore` says (docs/hosting.md): version control, installed
 * dependencies, environment files with secrets, the project's service.json and the CLI's
 * own state.
 */
const alwaysLeftOut = ['.git', 'node_modules', '.env', '.env.*', 'service.json', '.svc', '.svcignore', '.DS_Store'];

/**
 * Every file under `root` that a deploy takes, hashed: symbolic links are followed only
 * when they stay inside `root`; `.svcignore` (gitignore syntax) at the root leaves out
 * more. Nothing is written into `root`.
 */
export async function siteFiles(root: string): Promise<SiteFile[]> {
  const rules = ignore().add(alwaysLeftOut);
  const svcignore = await readFile(join(root, '.svcignore'), 'utf8').catch(() => null);
  if (svcignore !== null) rules.add(svcignore);
  const files: SiteFile[] = [];
  const realRoot = await realpath(root);
  const inside = async (link: string): Promise<boolean> => {
    const target = await realpath(link).catch(() => null);
    return target !== null && (target === realRoot || target.startsWith(`${realRoot}${sep}`));
  };
  const walk = async (directory: string): Promise<void> => {
    const entries = await readdir(directory, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const absolute = join(directory, entry.name);
      const path = relative(root, absolute).split(sep).join('/');
      const info = entry.isSymbolicLink() ? await stat(absolute).catch(() => null) : null;
      const isDirectory = entry.isDirectory() || info?.isDirectory() === true;
      if (rules.ignores(isDirectory ? `${path}/` : path)) continue;
      // A link to a file inside the site is followed; links to directories (loops) or outside are not.
      if (entry.isSymbolicLink() && (info === null || info.isDirectory() || !(await inside(absolute)))) continue;
      if (isDirectory) await walk(absolute);
      else if (entry.isFile() || info?.isFile()) files.push({ path, absolute, ...(await hashFile(absolute)) });
    }
  };
  await walk(root);
  return files;
}

async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { sha256: hash.digest('hex'), size };
}

/** The build output directory of a framework (the specification's `framework`), when it has one. */
export function outputDirectory(framework: string): string | null {
  switch (framework) {
    case 'static':
      return '.';
    case 'astro':
      return 'dist';
    case 'next':
      return 'out';
    default:
      return null;
  }
}
