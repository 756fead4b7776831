import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BuildError } from './build-error.js';
import type { BuildRequest } from './build-request.js';
import { fetchCommit } from './fetch-commit.js';
import { readRepoLocation } from './repo-location.js';

/**
 * Fetches the commit through the project's cache; when that fails for any reason but time
 * or cancel, fetches again without it, and a cache that was the problem (the second fetch
 * worked) is removed, to be made afresh by the next build.
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
  if (request.cacheDir === undefined) return fetchInto(ownGitDir, 'fetch');
  try {
    await fetchInto(request.cacheDir, 'fetch');
    return;
  } catch (error) {
    if (!(error instanceof BuildError) || error.code !== 'fetch_failed') throw error;
    where.write(`Fetching through the project's git cache failed (${error.message}); fetching without it\n`);
  }
  await rm(where.checkoutDir, { recursive: true, force: true });
  await fetchInto(ownGitDir, 'fetch-again');
  where.write('The project\'s git cache was unusable; it is removed and made afresh by the next build\n');
  await rm(request.cacheDir, { recursive: true, force: true });
}
