import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { BuildError } from './build-error.js';
import { gitEnvironment } from './git-environment.js';
import { isBranchName, isCommitId } from './git-names.js';
import { runGit, type GitRunResult } from './git-run.js';
import { pinnedAddresses } from './pinned-addresses.js';
import { readRepoLocation, type RepoLocation } from './repo-location.js';

export interface RepoAccess {
  readonly repoUrl: string;
  readonly repoToken?: string | undefined;
  readonly allowLocalRepos: boolean;
  /** Whether an https repository may be on a private or loopback address (`--allow-private-targets`). */
  readonly allowPrivateTargets?: boolean | undefined;
  /** More git settings (tests: `protocol.version=0`, as an old host speaks). */
  readonly extraGitConfig?: readonly (readonly [string, string])[] | undefined;
}

export interface FetchCommitOptions extends RepoAccess {
  readonly commit: string;
  /** The branch the commit was pushed to: fetched whole when the host will not serve a commit by id. */
  readonly branch: string;
  /**
   * The bare repository objects are fetched into: the project's cache under the data dir
   * (`<dataDir>/builds/git/<projectId>.git`, shared by its builds), or a folder of this build.
   */
  readonly gitDir: string;
  /** Where the commit's files are written; must not exist or be empty. */
  readonly checkoutDir: string;
  /** A folder of this build for git's HOME and index. */
  readonly scratchDir: string;
  readonly deadline: number;
  readonly signal: AbortSignal;
  readonly onLog: (chunk: string) => void;
}

/** Fetches in one cache never overlap (git's shallow file takes one writer). */
const cacheLocks = new Map<string, Promise<unknown>>();

/**
 * Writes exactly the files of `commit` into `checkoutDir`: a shallow fetch of that commit
 * (`git fetch --depth 1 <repo> <sha>`), or, when the host refuses a commit that no branch
 * tip names (protocol v0 without `uploadpack.allowReachableSHA1InWant`), a fetch of its
 * branch and a check that the commit is there. The checkout holds no `.git`: the build
 * never sees the cache, the remote's address or the token.
 */
export async function fetchCommit(options: FetchCommitOptions): Promise<void> {
  if (!isCommitId(options.commit)) throw new BuildError('fetch_failed', `"${options.commit}" is not a full commit id`);
  if (!isBranchName(options.branch)) throw new BuildError('fetch_failed', `"${options.branch}" is not a branch name`);
  const { location, env } = await gitAccess(options, options.scratchDir);
  await withCacheLock(options.gitDir, () => fetchInto(options, location, env));
}

/** Runs `work` when no other fetch, prune or removal of this cache runs in this process. */
export async function withCacheLock<T>(gitDir: string, work: () => Promise<T>): Promise<T> {
  const previous = cacheLocks.get(gitDir) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(work);
  cacheLocks.set(gitDir, current);
  try {
    return await current;
  } finally {
    if (cacheLocks.get(gitDir) === current) cacheLocks.delete(gitDir);
  }
}

/** The ref that keeps the last commit built from `branch` in a cache; the prune keeps what these reach. */
export function builtRef(branch: string): string {
  return `refs/svc/built/${branch}`;
}

/** The checked repository location and the environment git runs with for it. */
export async function gitAccess(access: RepoAccess, home: string): Promise<{ location: RepoLocation; env: Record<string, string> }> {
  const location = readRepoLocation(access.repoUrl, access.allowLocalRepos);
  if ('refused' in location) throw new BuildError('fetch_failed', location.refused);
  const pins = location.kind === 'https' ? await pinnedAddresses(location.url, access.allowPrivateTargets === true) : [];
  await mkdir(home, { recursive: true });
  return { location, env: gitEnvironment({ home, token: access.repoToken, allowLocal: location.kind === 'local', pinnedAddresses: pins, extraConfig: access.extraGitConfig }) };
}

/** The address git is given: the https URL, or the local path. */
export function gitRemote(location: RepoLocation): string {
  return location.kind === 'https' ? location.url.href : location.path;
}

async function fetchInto(options: FetchCommitOptions, location: RepoLocation, env: Record<string, string>): Promise<void> {
  const remote = gitRemote(location);
  const git = (args: readonly string[], extra: { log?: boolean; extraEnv?: Record<string, string> } = {}): Promise<GitRunResult> =>
    runGit({ args, cwd: options.scratchDir, env, deadline: options.deadline, signal: options.signal, ...(extra.log === true ? { onOutput: options.onLog } : {}), ...(extra.extraEnv ? { extraEnv: extra.extraEnv } : {}) });
  const gitDir = `--git-dir=${options.gitDir}`;

  if (!existsSync(`${options.gitDir}/HEAD`)) {
    await mkdir(options.gitDir, { recursive: true });
    expectOk(await git(['init', '--bare', '--quiet', options.gitDir]), 'could not create the repository cache');
  }
  options.onLog(`Fetching ${options.commit} (${options.branch}) from ${options.repoUrl}\n`);
  const byId = await git([gitDir, 'fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--depth', '1', '--', remote, options.commit], { log: true });
  stopIfEnded(byId);
  if (byId.kind !== 'ok' || !(await hasCommit(git, gitDir, options.commit))) {
    options.onLog(`The host did not give the commit by its id; fetching the branch ${options.branch}\n`);
    const byBranch = await git([gitDir, 'fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--', remote, `+refs/heads/${options.branch}:refs/svc/${options.branch}`], { log: true });
    stopIfEnded(byBranch);
    if (byBranch.kind !== 'ok') throw new BuildError('fetch_failed', `could not fetch ${options.repoUrl}: ${lastLine(byBranch.output) || lastLine(byId.kind === 'failed' ? byId.output : '')}`);
    if (!(await hasCommit(git, gitDir, options.commit))) throw new BuildError('fetch_failed', `the commit ${options.commit} is not on the branch ${options.branch} of ${options.repoUrl}`);
  }

  expectOk(await git([gitDir, 'update-ref', builtRef(options.branch), options.commit]), 'could not keep the commit in the repository cache');

  await mkdir(options.checkoutDir, { recursive: true });
  // A separate index per build: builds of one project share the cache, never its index.
  const extraEnv = { GIT_INDEX_FILE: `${options.scratchDir}/index` };
  const workTree = `--work-tree=${options.checkoutDir}`;
  expectOk(await git([gitDir, workTree, 'read-tree', options.commit], { extraEnv }), `could not read the commit ${options.commit}`);
  expectOk(await git([gitDir, workTree, 'checkout-index', '--all', '--force'], { extraEnv }), `could not write the files of ${options.commit}`);
}

async function hasCommit(git: (args: readonly string[]) => Promise<GitRunResult>, gitDir: string, commit: string): Promise<boolean> {
  const result = await git([gitDir, 'cat-file', '-e', `${commit}^{commit}`]);
  stopIfEnded(result);
  return result.kind === 'ok';
}

/** Timeout and cancel end the fetch with their own codes. */
export function stopIfEnded(result: GitRunResult): asserts result is Extract<GitRunResult, { output: string }> {
  if (result.kind === 'timeout') throw new BuildError('timeout', 'timed out while fetching the repository');
  if (result.kind === 'canceled') throw new BuildError('canceled', 'canceled while fetching the repository');
}

function expectOk(result: GitRunResult, what: string): void {
  stopIfEnded(result);
  if (result.kind === 'failed') throw new BuildError('fetch_failed', `${what}: ${lastLine(result.output)}`);
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop()?.trim() ?? '';
}
