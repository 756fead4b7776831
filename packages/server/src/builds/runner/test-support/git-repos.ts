import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const gitEnv = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A real repository made for a test: a bare repository (the remote) and a working clone that pushes to it. */
export interface TestRepo {
  /** The temporary folder holding both; remove it with {@link TestRepo.remove}. */
  readonly root: string;
  /** The bare repository's path: what a build fetches from. */
  readonly bare: string;
  /** Writes the files (path → content), commits them and pushes to `branch`; returns the commit id. */
  commit(files: Readonly<Record<string, string>>, branch?: string): string;
  remove(): void;
}

export function createTestRepo(): TestRepo {
  const root = mkdtempSync(join(tmpdir(), 'svc-repo-'));
  const bare = join(root, 'remote.git');
  const work = join(root, 'work');
  git(root, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  git(root, 'init', '--quiet', '--initial-branch=main', work);
  git(work, 'remote', 'add', 'origin', bare);
  let count = 0;
  return {
    root,
    bare,
    commit(files, branch = 'main') {
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(work, path)), { recursive: true });
        writeFileSync(join(work, path), content);
      }
      count += 1;
      git(work, 'add', '--all');
      git(work, 'commit', '--quiet', '--allow-empty', '-m', `commit ${count}`);
      git(work, 'push', '--quiet', '--force', 'origin', `HEAD:refs/heads/${branch}`);
      return git(work, 'rev-parse', 'HEAD');
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
