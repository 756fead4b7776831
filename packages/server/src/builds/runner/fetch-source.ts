import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BuildError } from './build-error.js';
import type { BuildRequest } from './build-request.js';
import { fetchCommit } from './fetch-commit.js';
import { pruneGitCache, removeGitCache } from './git-cache.js';
import { readRepoLocation } from './repo-location.js';

/** The default cap of a project's git cache (`--build-git-cache`). */
export const defaultGitCacheBytes = 1024 ** 3;

/**
 * Fetches the commit through the project's cache (docs/hosting.md, "Disk"). A fetch that
 * fails, times out or is stopped leaves nothing behind: the cache is removed (it is only a
 * cache), and when the fetch failed for another reason than time or cancel, the commit is
 * fetched again without it. After the checkout the cache is pruned to the last commit
 * built from each branch, and removed if it is still larger than its cap.
 */
export async function fetchSource(request: BuildRequest, where: { checkoutDir: string; workDir: string; deadline: number; write: (chunk: string) => void }): Promise<void> {
  const fetchInto = (gitDir: string, scratch: string): Promise<void> =>
    fetchCommit({
      repoUrl: request.repoUrl,
      repoToken: request.repoToken,
      allowLocalRepos: request.allowLocalRepos,
      allowPrivateTargets: request.allowPrivateTargets,
      commit: request.commit,
      branch: request.branch,
      gitDir,
      checkoutDir: where.checkoutDir,
      scratchDir: join(where.workDir, scratch),
      deadline: where.deadline,
      signal: request.signal,
      onLog: where.write,
    });
  const ownGitDir = join(where.workDir, 'git');
  const location = readRepoLocation(request.repoUrl, request.allowLocalRepos);
  if ('refused' in location) throw new BuildError('fetch_failed', location.refused);
  const cacheDir = request.cacheDir;
  if (cacheDir === undefined) return fetchInto(ownGitDir, 'fetch');
  try {
    await fetchInto(cacheDir, 'fetch');
  } catch (error) {
    await removeGitCache(cacheDir);
    if (!(error instanceof BuildError) || error.code !== 'fetch_failed') throw error;
    where.write(`Fetching through the project's git cache failed (${error.message}); the cache is removed, and the commit fetched without it\n`);
    await rm(where.checkoutDir, { recursive: true, force: true });
    await fetchInto(ownGitDir, 'fetch-again');
    await rm(ownGitDir, { recursive: true, force: true });
    return;
  }
  const pruned = await pruneGitCache({ gitDir: cacheDir, scratchDir: join(where.workDir, 'prune'), capBytes: request.gitCacheBytes ?? defaultGitCacheBytes, deadline: where.deadline, signal: request.signal });
  if (!pruned.kept) where.write(`The project's git cache held ${pruned.bytes} bytes after pruning, more than its cap (--build-git-cache): it is removed, and the next build fetches afresh\n`);
}
