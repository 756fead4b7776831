import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * The branch checked out in the git repository that holds `directory`, read from
 * `.git/HEAD` (git itself need not be installed); undefined outside a repository or on a
 * detached HEAD. Worktrees and submodules (a `.git` file pointing elsewhere) are followed.
 */
export async function detectBranch(directory: string): Promise<string | undefined> {
  const gitDir = await findGitDir(resolve(directory));
  if (gitDir === undefined) return undefined;
  const head = await readFile(join(gitDir, 'HEAD'), 'utf8').catch(() => '');
  const match = /^ref:\s*refs\/heads\/(.+?)\s*$/m.exec(head);
  return match?.[1];
}

async function findGitDir(start: string): Promise<string | undefined> {
  for (let current = start; ; current = dirname(current)) {
    const candidate = join(current, '.git');
    const info = await stat(candidate).catch(() => null);
    if (info?.isDirectory()) return candidate;
    if (info?.isFile()) {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(candidate, 'utf8').catch(() => ''));
      if (pointer?.[1]) return isAbsolute(pointer[1]) ? pointer[1] : resolve(current, pointer[1]);
    }
    if (dirname(current) === current) return undefined;
  }
}

/** The commit the branch checked out points at (a loose ref or `packed-refs`); undefined when unknown. */
export async function detectCommit(directory: string): Promise<string | undefined> {
  const gitDir = await findGitDir(resolve(directory));
  const branch = await detectBranch(directory);
  if (gitDir === undefined || branch === undefined) return undefined;
  const loose = (await readFile(join(gitDir, 'refs', 'heads', branch), 'utf8').catch(() => '')).trim();
  if (/^[0-9a-f]{40,64}$/.test(loose)) return loose;
  const packed = await readFile(join(gitDir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const [hash, ref] = line.trim().split(' ');
    if (ref === `refs/heads/${branch}` && hash !== undefined && /^[0-9a-f]{40,64}$/.test(hash)) return hash;
  }
  return undefined;
}
