import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pushWebhook, type TestGitRepo } from './git-repo.js';
import { request, type Answer } from './http.js';
import { eventually } from './receiver.js';
import { runSvcInProcess } from './run-svc-in-process.js';
import { startSvc, type SvcProcess } from './svc-process.js';

/** A build as `svc builds show --json` shows it, with its log. */
export interface ShownBuild {
  readonly id: string;
  readonly environment: string;
  readonly commit: string | null;
  readonly status: 'queued' | 'building' | 'succeeded' | 'failed' | 'canceled';
  readonly error: string | null;
  readonly deploy: string | null;
  readonly startedAt: string | null;
  readonly log: string;
}

/** A project of a {@link GitBuildServer}: where its `svc` commands run, and its push webhook. */
export interface GitBuildProject {
  readonly workspace: string;
  readonly project: string;
  readonly cwd: string;
  readonly pushUrl: string;
  readonly pushSecret: string;
}

/**
 * One `svc serve` that builds from git, driven as a git host and a person would: projects
 * made with `svc init` and connected with `svc git connect` (the server runs with
 * --allow-local-repos), pushes sent as GitHub signs them, builds read through the CLI API.
 */
export class GitBuildServer {
  private constructor(
    readonly server: SvcProcess,
    readonly token: string,
  ) {}

  static async start(serverArgs: readonly string[], token: string, args: readonly string[]): Promise<GitBuildServer> {
    return new GitBuildServer(await startSvc({ args: [...serverArgs, '--allow-local-repos', '--cli-rate-limit', '100000/1m', '--build-poll-interval', '200ms', ...args], env: { SVC_BOOTSTRAP_TOKEN: token } }), token);
  }

  svc(args: readonly string[], cwd: string) {
    return runSvcInProcess(args, { cwd, env: { SVC_API_URL: this.server.url, SVC_TOKEN: this.token, SVC_CONFIG_DIR: join(cwd, '.config') } });
  }

  /** `svc init` of `workspace`/`project` (branch main) and `svc git connect` to `repo`. */
  async connect(workspace: string, project: string, repo: TestGitRepo, framework = 'static'): Promise<GitBuildProject> {
    const cwd = await mkdtemp(join(tmpdir(), 'svc-git-project-'));
    const init = await this.svc(['init', '--workspace', workspace, '--project', project, '--framework', framework, '--branch', 'main', '--yes'], cwd);
    if (init.code !== 0) throw new Error(`svc init failed: ${init.stderr}`);
    const connected = await this.svc(['git', 'connect', '--repo', repo.path, '--json'], cwd);
    if (connected.code !== 0) throw new Error(`svc git connect failed: ${connected.stderr}`);
    const { pushUrl, pushSecret } = (JSON.parse(connected.stdout) as { git: { pushUrl: string; pushSecret: string } }).git;
    return { workspace, project, cwd, pushUrl: pushUrl.replace(/^http:\/\/[^/]+/, this.server.url), pushSecret };
  }

  /** A push of `commit` to main, signed as GitHub signs it. */
  push(project: GitBuildProject, commit: string): Promise<Answer> {
    const { headers, body } = pushWebhook('github', project.pushSecret, { ref: 'refs/heads/main', after: commit });
    return request(project.pushUrl, { method: 'POST', headers, body });
  }

  /** A push that must queue a build: its id. */
  async queued(project: GitBuildProject, commit: string): Promise<string> {
    const answer = await this.push(project, commit);
    if (answer.status !== 202 || !('build' in (answer.body as object))) throw new Error(`the push answered ${answer.status}: ${answer.text}`);
    return (answer.body as { build: { id: string } }).build.id;
  }

  async build(project: GitBuildProject, id: string): Promise<ShownBuild> {
    const headers = { authorization: `Bearer ${this.token}` };
    const base = `${this.server.url}/api/cli/projects/${project.workspace}/${project.project}/builds/${id}`;
    // The log after the state: an ended build's log is then the one it ended with.
    const shown = await request(base, { headers });
    const log = await request(`${base}/log`, { headers });
    if (shown.status !== 200 || log.status !== 200) throw new Error(`reading build ${id} answered ${shown.status} / ${log.status}: ${shown.text}`);
    return { ...(shown.body as { build: Omit<ShownBuild, 'log'> }).build, log: (log.body as { log: string }).log };
  }

  /** The build once it has ended (succeeded, failed or canceled). */
  ended(project: GitBuildProject, id: string, timeoutMs = 120_000): Promise<ShownBuild> {
    return eventually(
      () => this.build(project, id),
      (build) => build.status !== 'queued' && build.status !== 'building',
      `build ${id} to end`,
      timeoutMs,
    );
  }

  /** The deploy each environment serves. */
  async live(project: GitBuildProject): Promise<Record<string, string | null>> {
    const listed = await this.svc(['deploys', 'list', '--json'], project.cwd);
    return (JSON.parse(listed.stdout) as { live: Record<string, string | null> }).live;
  }
}
