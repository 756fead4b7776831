import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { BuildError } from './build-error.js';
import { gitAccess, gitRemote, stopIfEnded, withCacheLock, type RepoAccess } from './fetch-commit.js';
import { isCommitId } from './git-names.js';
import { runGit, type GitRunResult } from './git-run.js';
import { resolveBranchHead } from './resolve-branch-head.js';

/** How deep the history between a pushed commit and the live one is looked for, step by step. */
const depths = [1, 64, 1024] as const;

export interface PushedCommitCheck extends RepoAccess {
  readonly commit: string;
  readonly branch: string;
  /** The commit the environment serves, when a build from git made what is live; else null. */
  readonly liveCommit: string | null;
  readonly environment: string;
  /** The project's git cache, where the history is fetched (under its lock). */
  readonly gitDir: string;
  /** A folder of the build for git's HOME. */
  readonly scratchDir: string;
  readonly deadline: number;
  readonly signal: AbortSignal;
}

/**
 * Why a push's build must not run, or null when it may (docs/hosting.md, "Builds"): a
 * pushed commit is built only when it is still the head of its branch, or when it descends
 * from the commit live on the environment (a push that arrived late, after a newer one on
 * the host, but still ahead of what is served). A replayed push of an older commit is
 * neither, and would put old code back live. The head is read with `git ls-remote`; the
 * descent is looked for in the commit's history, fetched into the project's cache 1, 64,
 * then 1,024 commits deep (what the build does not need is pruned after it).
 */
export async function stalePushReason(check: PushedCommitCheck): Promise<string | null> {
  let head: string;
  try {
    head = await resolveBranchHead(check.repoUrl, check.branch, { ...check, signal: check.signal, timeoutMs: Math.max(1, check.deadline - Date.now()) });
  } catch (error) {
    if (error instanceof BuildError && error.code === 'fetch_failed' && error.message.startsWith('the branch ')) return `not built: the branch ${check.branch} no longer exists, so ${short(check.commit)} is no push to deploy`;
    throw error;
  }
  if (head === check.commit) return null;
  const stale = `not built: ${short(check.commit)} is not the head of ${check.branch} (${short(head)} is)`;
  if (check.liveCommit === null || !isCommitId(check.liveCommit)) return `${stale}, and nothing built from git is live on ${check.environment}: a replayed or stale push; push again or call the deploy hook`;
  if (await descends(check, check.liveCommit)) return null;
  return `${stale}, nor does it descend from ${short(check.liveCommit)}, live on ${check.environment}: a replayed or stale push would put older code back live; push again or call the deploy hook`;
}

async function descends(check: PushedCommitCheck, ancestor: string): Promise<boolean> {
  const { location, env } = await gitAccess(check, check.scratchDir);
  const git = (args: readonly string[]): Promise<GitRunResult> => runGit({ args: [`--git-dir=${check.gitDir}`, ...args], cwd: check.scratchDir, env, deadline: check.deadline, signal: check.signal });
  return withCacheLock(check.gitDir, async () => {
    if (!existsSync(`${check.gitDir}/HEAD`)) {
      await mkdir(check.gitDir, { recursive: true });
      const made = await runGit({ args: ['init', '--bare', '--quiet', check.gitDir], cwd: check.scratchDir, env, deadline: check.deadline, signal: check.signal });
      stopIfEnded(made);
      if (made.kind !== 'ok') throw new BuildError('fetch_failed', 'could not create the repository cache');
    }
    for (const depth of depths) {
      let fetched = await git(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', `--depth=${depth}`, '--', gitRemote(location), check.commit]);
      stopIfEnded(fetched);
      // A host that serves no commit by its id: the branch's history, where a late push's commit is.
      if (fetched.kind !== 'ok') fetched = await git(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', `--depth=${depth}`, '--', gitRemote(location), `+refs/heads/${check.branch}:refs/svc/${check.branch}`]);
      stopIfEnded(fetched);
      if (fetched.kind !== 'ok') throw new BuildError('fetch_failed', `could not fetch ${check.commit}: ${fetched.output.trim().split('\n').pop() ?? ''}`);
      const ancestry = await git(['merge-base', '--is-ancestor', ancestor, check.commit]);
      stopIfEnded(ancestry);
      if (ancestry.kind === 'ok') return true;
    }
    return false;
  });
}

function short(commit: string): string {
  return commit.slice(0, 12);
}
