import { mkdir, rm } from 'node:fs/promises';
import { BuildError } from './build-error.js';
import { folderBytes } from './disk-usage.js';
import { builtRef, withCacheLock } from './fetch-commit.js';
import { gitEnvironment } from './git-environment.js';
import { runGit, type GitRunResult } from './git-run.js';

export interface PruneGitCacheOptions {
  /** The project's cache, a bare repository. */
  readonly gitDir: string;
  /** A folder of the build for git's HOME. */
  readonly scratchDir: string;
  /** Past this after the prune, the cache is removed (`--build-git-cache`). */
  readonly capBytes: number;
  readonly deadline: number;
  readonly signal: AbortSignal;
}

/**
 * Keeps a project's git cache small (docs/hosting.md, "Disk"): after a build fetched, only
 * the last commit built from each branch stays referenced (`refs/svc/built/<branch>`); every
 * other ref (a branch fetched whole when a host would not serve a commit by its id) is
 * dropped, and `git gc --prune=now` removes every object those commits do not reach. A
 * cache still larger than `capBytes`, or that could not be pruned, is removed: the next
 * build fetches afresh, into a new one. Returns what became of it.
 */
export async function pruneGitCache(options: PruneGitCacheOptions): Promise<{ kept: boolean; bytes: number }> {
  return withCacheLock(options.gitDir, async () => {
    await mkdir(options.scratchDir, { recursive: true });
    const env = gitEnvironment({ home: options.scratchDir, allowLocal: false });
    const git = (args: readonly string[]): Promise<GitRunResult> => runGit({ args: [`--git-dir=${options.gitDir}`, ...args], cwd: options.scratchDir, env, deadline: options.deadline, signal: options.signal });
    const refs = await git(['for-each-ref', '--format=%(refname)']);
    stopped(refs);
    if (refs.kind === 'ok') {
      for (const ref of refs.output.split('\n').map((line) => line.trim())) {
        if (ref !== '' && !ref.startsWith(builtRef(''))) stopped(await git(['update-ref', '-d', ref]));
      }
    }
    const gc = await git(['-c', 'gc.reflogExpire=now', '-c', 'gc.reflogExpireUnreachable=now', 'gc', '--prune=now', '--quiet']);
    stopped(gc);
    const bytes = await folderBytes([options.gitDir]);
    // A cache that cannot be pruned is not kept either: it could only grow.
    if (gc.kind === 'ok' && refs.kind === 'ok' && bytes <= options.capBytes) return { kept: true, bytes };
    await rm(options.gitDir, { recursive: true, force: true });
    return { kept: false, bytes };
  });
}

/** Removes a cache (what a failed or stopped fetch left in it too), after any fetch in it ended. */
export function removeGitCache(gitDir: string): Promise<void> {
  return withCacheLock(gitDir, () => rm(gitDir, { recursive: true, force: true }));
}

function stopped(result: GitRunResult): void {
  if (result.kind === 'timeout') throw new BuildError('timeout', 'timed out while pruning the repository cache');
  if (result.kind === 'canceled') throw new BuildError('canceled', 'canceled while pruning the repository cache');
}
