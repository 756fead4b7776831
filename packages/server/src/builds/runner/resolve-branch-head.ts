import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuildError } from './build-error.js';
import { gitAccess, gitRemote, stopIfEnded, type RepoAccess } from './fetch-commit.js';
import { isBranchName } from './git-names.js';
import { runGit } from './git-run.js';

export interface ResolveBranchHeadOptions extends Omit<RepoAccess, 'repoUrl'> {
  /** Default 60 seconds. */
  readonly timeoutMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The commit at the head of `branch` (`git ls-remote`), for a deploy hook's build: the same
 * transports, address policy, token handling and clean environment as a build's fetch.
 * Throws {@link BuildError} `fetch_failed` when the repository or branch cannot be read.
 */
export async function resolveBranchHead(repoUrl: string, branch: string, options: ResolveBranchHeadOptions): Promise<string> {
  if (!isBranchName(branch)) throw new BuildError('fetch_failed', `"${branch}" is not a branch name`);
  const home = await mkdtemp(join(tmpdir(), 'svc-ls-remote-'));
  try {
    const { location, env } = await gitAccess({ ...options, repoUrl }, home);
    const result = await runGit({
      args: ['ls-remote', '--', gitRemote(location), `refs/heads/${branch}`],
      cwd: home,
      env,
      deadline: Date.now() + (options.timeoutMs ?? 60_000),
      signal: options.signal ?? new AbortController().signal,
    });
    stopIfEnded(result);
    if (result.kind === 'failed') throw new BuildError('fetch_failed', `could not read ${repoUrl}: ${result.output.trim().split('\n').pop() ?? ''}`);
    for (const line of result.output.split('\n')) {
      const [commit, ref] = line.split('\t');
      if (ref === `refs/heads/${branch}` && commit !== undefined) return commit;
    }
    throw new BuildError('fetch_failed', `the branch ${branch} does not exist in ${repoUrl}`);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
