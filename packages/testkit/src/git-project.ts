import { join } from 'node:path';
import type { TestGitRepo } from './git-repo.js';
import { runSvc } from './run-svc.js';

/** A project deployed from a test repository, and how its `svc` commands reach the server. */
export interface GitProject {
  /** SVC_API_URL, SVC_TOKEN and SVC_CONFIG_DIR for `runSvc` in the project's directory. */
  readonly env: Readonly<Record<string, string>>;
  readonly pushUrl: string;
  readonly pushSecret: string;
}

/**
 * Makes the static project `workspace`/site in `cwd` (`svc init`, branch main) and connects
 * it to `repo` (`svc git connect`; the server runs with --allow-local-repos): its push webhook.
 */
export async function connectGitProject(serverUrl: string, token: string, repo: TestGitRepo, cwd: string, workspace: string): Promise<GitProject> {
  const env = { SVC_API_URL: serverUrl, SVC_TOKEN: token, SVC_CONFIG_DIR: join(cwd, '.config') };
  const init = await runSvc(['init', '--workspace', workspace, '--project', 'site', '--framework', 'static', '--branch', 'main', '--yes'], { cwd, env });
  if (init.code !== 0) throw new Error(`svc init failed: ${init.stderr}`);
  const connected = await runSvc(['git', 'connect', '--repo', repo.path, '--json'], { cwd, env });
  if (connected.code !== 0) throw new Error(`svc git connect failed: ${connected.stderr}`);
  const { pushUrl, pushSecret } = (JSON.parse(connected.stdout) as { git: { pushUrl: string; pushSecret: string } }).git;
  return { env, pushUrl, pushSecret };
}
