// TEMPORARY STUB of the seam agreed with the helper "build32", who owns this file: replaced by
// the real runner when that branch is merged. Never the final state.
import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface BuildRequest {
  projectId: string;
  repoUrl: string;
  repoToken?: string;
  commit: string;
  branch: string;
  framework: string;
  workDir: string;
  timeoutMs: number;
  sandbox: 'auto' | 'bwrap' | 'none';
  allowLocalRepos: boolean;
  signal: AbortSignal;
  onLog(chunk: string): void;
}

export interface BuildResult {
  outputDir: string;
  log: string;
}

export type BuildErrorCode = 'fetch_failed' | 'build_failed' | 'timeout' | 'canceled' | 'sandbox_unavailable' | 'output_missing';

export class BuildError extends Error {
  override readonly name = 'BuildError';
  constructor(
    readonly code: BuildErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export async function runBuild(request: BuildRequest): Promise<BuildResult> {
  const checkout = join(request.workDir, 'checkout');
  await mkdir(checkout, { recursive: true });
  try {
    await run('git', ['init', '-q', checkout]);
    await run('git', ['-C', checkout, 'fetch', '-q', '--depth', '1', request.repoUrl, request.commit]);
    await run('git', ['-C', checkout, 'checkout', '-q', 'FETCH_HEAD']);
  } catch (error) {
    throw new BuildError('fetch_failed', (error as Error).message);
  }
  request.onLog(`checked out ${request.commit}\n`);
  if (request.framework !== 'static') throw new BuildError('build_failed', `stub runner builds only static sites`);
  const output = join(request.workDir, 'output');
  await cp(checkout, output, { recursive: true });
  return { outputDir: output, log: `checked out ${request.commit}\n` };
}

export async function resolveBranchHead(repoUrl: string, branch: string, _opts: { repoToken?: string; allowLocalRepos: boolean; signal?: AbortSignal }): Promise<string> {
  try {
    const { stdout } = await run('git', ['ls-remote', repoUrl, `refs/heads/${branch}`]);
    const sha = stdout.split(/\s/)[0];
    if (!sha) throw new BuildError('fetch_failed', `the repository has no branch ${branch}`);
    return sha;
  } catch (error) {
    if (error instanceof BuildError) throw error;
    throw new BuildError('fetch_failed', (error as Error).message);
  }
}
