import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ServiceError } from '@svc/protocol';
import type { DeploySource } from '@svc/protocol/api';
import { storeBuiltSite } from '../deploys/built-site.js';
import { failDeploy, makeDeployLive, startBuiltDeploy } from '../deploys/deploy-steps.js';
import { claimQueuedBuilds, finishBuild, hasQueuedBuild, renewBuildLease, updateBuildProgress } from '../store/queries/builds.js';
import { findDeployById, liveDeploys, setDeployFiles } from '../store/queries/deploys.js';
import { findGitConnection } from '../store/queries/git-connections.js';
import { findProjectById, findWorkspaceById } from '../store/queries/projects.js';
import type { BuildRow, DeployRow, ProjectRow, WorkspaceRow } from '../store/schema.js';
import { BuildClaimLoop, type BuildClaimMode } from './build-claim-loop.js';
import type { BuildServices } from './build-services.js';
import { repoTokenContext } from './git-secrets.js';
import { logForTry, recordEnd } from './build-ending.js';
import { BuildLog } from './build-log.js';
import { failAbandonedBuilds, removeLeftBuildFolders } from './build-recovery.js';
import { checkRepoAddress } from './repo-url.js';
import { stalePushReason } from './runner/pushed-commit.js';
import { BuildError, EgressProxy, memoryCapMethod, projectGitCache, removeStaleBuildCgroups, resolveBranchHead, runBuild } from './runner/run-build.js';

/** Lines of the log that `deploy.failed` carries with the reason. */
const failedLogLines = 20;

/**
 * Runs builds from git (docs/hosting.md, "Deploys from git"): its claim loop claims queued
 * builds through the database (any instance with role `all` or `worker`; two never run the
 * same build, an environment runs one build at a time, workspaces take turns), woken by
 * `signals.builds`; each build runs with the runner and its output is deployed the way
 * `svc deploy` does. A running build's lease is renewed while it runs; a build whose lease
 * ran out was left by a stopped server and is failed, saying so (docs/architecture.md, "Builds").
 */
export class BuildWorker {
  private readonly owner = `build-${randomBytes(8).toString('hex')}`;
  private readonly running = new Map<string, AbortController>();
  private readonly finished = new Set<Promise<void>>();
  /** Where builds work and the projects' git caches are (`--build-dir`, default `<data dir>/builds`). */
  private readonly buildDir: string;
  /** The install steps' only way out of their sandboxes. */
  private readonly egress: EgressProxy;
  private stopped = false;
  private readonly loop: BuildClaimLoop<BuildRow>;
  private poll: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly context: BuildServices,
    private readonly logger: Logger,
    private readonly reportFailure: (error: unknown, what: string) => void,
  ) {
    this.buildDir = context.options.builds.directory ?? join(context.options.dataDir, 'builds');
    this.egress = new EgressProxy(context.options.allowPrivateTargets);
    this.loop = new BuildClaimLoop({
      claim: () => this.claim(),
      hasRoom: () => !this.stopped && this.running.size < context.options.builds.concurrency,
      claimed: (build) => this.runClaimed(build),
      reportFailure,
    });
  }

  get claimMode(): BuildClaimMode {
    return this.loop.currentMode;
  }

  /** Fails what a stopped server left building (on SQLite: everything building), then starts claiming. */
  async start(): Promise<void> {
    await mkdir(this.buildDir, { recursive: true, mode: 0o700 });
    await this.recover(this.context.store.capabilities.singleInstance);
    const memoryCap = await memoryCapMethod();
    this.logger.info({ memoryBytes: this.context.options.builds.memoryBytes, method: memoryCap.kind }, `builds are held to --build-memory by ${memoryCap.description}`);
    if (memoryCap.kind === 'cgroup') {
      const removed = await removeStaleBuildCgroups(memoryCap.layout);
      if (removed > 0) this.logger.warn({ removed }, `removed ${removed} build ${removed === 1 ? 'cgroup' : 'cgroups'} that a stopped server left`);
    }
    // Woken by queued builds only (here and on other instances), never by a form post's events.
    this.unsubscribe = this.context.store.signals.builds.on(() => this.loop.wake());
    this.poll = setInterval(() => {
      this.recover(false).catch((error: unknown) => this.reportFailure(error, 'could not recover abandoned builds'));
      this.loop.wake();
    }, this.context.options.builds.pollIntervalMs);
    this.poll.unref();
    this.loop.wake();
  }

  /** Stops claiming; running builds are aborted and end failed ("the server stopped"). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.poll) clearInterval(this.poll);
    await this.loop.stop();
    for (const controller of this.running.values()) controller.abort();
    await Promise.allSettled([...this.finished]);
  }

  /** One claim, in its own transaction: the oldest build of the workspace whose turn it is, or null. */
  private async claim(): Promise<BuildRow | null> {
    const settings = this.context.options.builds;
    // The safety poll asks every few seconds: a read first, a claiming (writing) transaction only when a build waits.
    if (!(await hasQueuedBuild(this.context.store.db))) return null;
    const now = this.context.now();
    const claim = { limit: 1, now, owner: this.owner, expiresAt: now + settings.leaseMs };
    const claimed = await this.context.store.transaction((trx) => claimQueuedBuilds(trx, this.context.store.capabilities, claim)).catch((error: unknown) => {
      // Two instances met on one environment: the unique index decided; the other one runs it.
      if (this.context.store.classifyFailure(error) === 'unique') return [];
      throw error;
    });
    return claimed[0] ?? null;
  }

  /** Runs a claimed build; when it ends, its room (and its environment) is free: a new round, here and on the other instances. */
  private runClaimed(build: BuildRow): void {
    const controller = new AbortController();
    this.running.set(build.id, controller);
    const done = this.run(build, controller)
      .catch((error: unknown) => this.reportFailure(error, `build ${build.id} failed unexpectedly`))
      .finally(() => {
        this.running.delete(build.id);
        this.finished.delete(done);
        if (!this.stopped) this.context.store.signals.builds.announce();
      });
    this.finished.add(done);
  }

  private async run(build: BuildRow, controller: AbortController): Promise<void> {
    const { context } = this;
    const settings = context.options.builds;
    const log = new BuildLog();
    const project = await findProjectById(context.store.db, build.project_id);
    const workspace = await findWorkspaceById(context.store.db, project.workspace_id);
    const connection = await findGitConnection(context.store.db, project.id);
    const workDir = join(this.buildDir, build.id);
    const deadline = Date.now() + settings.timeoutMs;
    let commit = build.git_commit;
    let deploy: DeployRow | null = null;
    let end: { state: 'failed' | 'canceled'; reason: string } | null = null;
    const heartbeat = setInterval(() => {
      void this.renew(build, log, controller);
    }, Math.max(50, Math.floor(settings.leaseMs / 3)));
    heartbeat.unref();
    try {
      if (!connection) throw new BuildError('fetch_failed', 'the project has no repository: run `svc git connect --repo URL`');
      const repoToken = connection.token_sealed === null ? undefined : context.secrets.open(connection.token_sealed, repoTokenContext(project.id));
      const unreachable = await checkRepoAddress(connection.repo_url, { allowLocalRepos: settings.allowLocalRepos, allowPrivateTargets: context.options.allowPrivateTargets });
      if (unreachable !== null) throw new BuildError('fetch_failed', `the repository cannot be reached: ${unreachable}`);
      const access = { repoToken, allowLocalRepos: settings.allowLocalRepos, allowPrivateTargets: context.options.allowPrivateTargets };
      if (commit === null) {
        log.append(`reading the head of ${build.branch}\n`);
        commit = await resolveBranchHead(connection.repo_url, build.branch, { ...access, signal: controller.signal });
        await updateBuildProgress(context.store.db, build.id, this.owner, { git_commit: commit });
      } else if (build.trigger === 'push') {
        const stale = await stalePushReason({ ...access, repoUrl: connection.repo_url, commit, branch: build.branch, environment: build.environment, liveCommit: await liveCommit(context, project.id, build.environment), gitDir: projectGitCache(this.buildDir, project.id), scratchDir: join(workDir, 'check'), deadline, signal: controller.signal });
        await rm(workDir, { recursive: true, force: true });
        if (stale !== null) throw new StalePush(stale);
      }
      deploy = await this.startDeploy(build, project, workspace, connection.repo_url, commit);
      log.append(`building ${commit} of ${build.branch} (${project.framework}) for ${build.environment}\n`);
      const result = await runBuild({
        projectId: project.id,
        repoUrl: connection.repo_url,
        ...access,
        commit,
        branch: build.branch,
        framework: project.framework,
        workDir,
        timeoutMs: Math.max(1, deadline - Date.now()),
        sandbox: settings.sandbox,
        cacheDir: projectGitCache(this.buildDir, project.id),
        privateDirs: [context.options.dataDir, this.buildDir],
        memoryBytes: settings.memoryBytes,
        buildNetwork: settings.network,
        egress: this.egress,
        disk: { diskBytes: settings.diskBytes, minFreeBytes: settings.minFreeBytes, intervalMs: settings.diskCheckIntervalMs },
        watchedDirs: [{ name: 'the data dir', path: context.options.dataDir }],
        gitCacheBytes: settings.gitCacheBytes,
        outputLimits: context.options.deployLimits,
        signal: controller.signal,
        onLog: (chunk) => log.append(chunk),
      });
      log.append('deploying the output\n');
      const site = await storeBuiltSite(context, workspace.id, result.outputDir);
      const live = deploy;
      await context.store.transaction(async (trx) => {
        await setDeployFiles(trx, live.id, site.files.map((file) => ({ deploy_id: live.id, ...file })), site.bytes, context.now());
        const now = context.now();
        await makeDeployLive(trx, context, { project, workspace }, { ...live, file_count: site.files.length, total_bytes: site.bytes }, now);
        log.append(`live: ${live.id} (${site.files.length} files)\n`);
        await finishBuild(trx, build.id, this.owner, { state: 'succeeded', error: null, log: log.value, now });
      });
      context.store.signals.events.announce();
      context.store.signals.sites.announce();
      this.logger.info({ build: build.id, deploy: live.id, environment: build.environment }, 'build deployed');
    } catch (error) {
      if (error instanceof StalePush) {
        log.append(`${error.message}\n`);
        end = { state: 'canceled', reason: error.message };
      } else {
        const reason = this.reasonOf(error, controller);
        log.append(`failed: ${reason}\n`);
        end = { state: 'failed', reason };
      }
    } finally {
      // The build's files go first: a build that filled the disk leaves room for its end to be recorded.
      await rm(workDir, { recursive: true, force: true }).catch(() => undefined);
    }
    try {
      if (end !== null) await this.end(build, end, deploy, commit, project, workspace, connection?.repo_url ?? '', log);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private reasonOf(error: unknown, controller: AbortController): string {
    if (this.stopped && controller.signal.aborted) return 'the server stopped during the build; push again or call the deploy hook';
    if (error instanceof BuildError) return error.message;
    if (error instanceof ServiceError) return error.message;
    this.reportFailure(error, 'a build failed unexpectedly');
    return 'the build failed on the server (see the server log)';
  }

  /** The build's deploy, recorded with `deploy.started`, and the build pointed at it. */
  private async startDeploy(build: BuildRow, project: ProjectRow, workspace: WorkspaceRow, repo: string, commit: string | null): Promise<DeployRow> {
    const source: DeploySource = { type: 'git', repo, branch: build.branch, commit, trigger: build.trigger };
    const row = await this.context.store.transaction(async (trx) => {
      const started = await startBuiltDeploy(trx, this.context, { project, workspace }, { environment: build.environment, branch: build.branch, commit, source, createdBy: build.created_by }, this.context.now());
      await updateBuildProgress(trx, build.id, this.owner, { deploy_id: started.id });
      return started;
    });
    this.context.store.signals.events.announce();
    return row;
  }

  /**
   * Ends a build that did not deploy: failed (its deploy too, with `deploy.failed`) or
   * canceled (a stale push: no deploy was started). Recorded with retries, each with less of
   * the log, so a full disk never leaves it `building` nor loses its reason.
   */
  private async end(build: BuildRow, end: { state: 'failed' | 'canceled'; reason: string }, started: DeployRow | null, commit: string | null, project: ProjectRow, workspace: WorkspaceRow, repo: string, log: BuildLog): Promise<void> {
    const { context } = this;
    let deploy = started;
    const recorded = await recordEnd(
      async (attempt) => {
        if (end.state === 'failed' && deploy === null) deploy = await this.startDeploy(build, project, workspace, repo, commit).catch(() => null);
        const kept = logForTry(log.value, end.reason, attempt);
        const withLog = `${end.reason}\n${log.lastLines(failedLogLines)}`.slice(0, 8_000);
        const now = context.now();
        await context.store.transaction(async (trx) => {
          if (deploy && end.state === 'failed') await failDeploy(trx, context, { project, workspace }, deploy, attempt < 2 ? withLog : end.reason, now);
          await finishBuild(trx, build.id, this.owner, { state: end.state, error: end.reason, log: kept, now });
        });
      },
      { stopped: () => this.stopped, onFailure: (error, attempt) => this.reportFailure(error, `could not record the end of build ${build.id} (try ${attempt + 1})`) },
    );
    if (!recorded) return;
    context.store.signals.events.announce();
    this.logger.info({ build: build.id, environment: build.environment, state: end.state, reason: end.reason }, end.state === 'failed' ? 'build failed' : 'build not run');
  }

  /** Renews the lease and stores the log; aborts the build when it is no longer ours. */
  private async renew(build: BuildRow, log: BuildLog, controller: AbortController): Promise<void> {
    try {
      const now = this.context.now();
      if (!(await renewBuildLease(this.context.store.db, build.id, this.owner, now + this.context.options.builds.leaseMs))) {
        controller.abort();
        return;
      }
      if (log.takeChanged()) await updateBuildProgress(this.context.store.db, build.id, this.owner, { log: log.value });
    } catch (error) {
      this.reportFailure(error, `could not renew build ${build.id}`);
    }
  }

  /**
   * Builds left building by a server that stopped: those whose lease ran out, or (`all`,
   * on a store only one server uses, at start) every one, are failed with the reason; then
   * the folders of builds no longer running are removed.
   */
  private async recover(all: boolean): Promise<void> {
    const failed = await failAbandonedBuilds(this.context, all ? Number.MAX_SAFE_INTEGER : this.context.now(), this.running);
    for (const id of failed) this.logger.warn({ build: id }, 'failed a build a stopped server left building');
    const removed = await removeLeftBuildFolders(this.context, this.buildDir, this.running);
    if (removed > 0) this.logger.warn({ removed }, `removed the folders of ${removed} ${removed === 1 ? 'build' : 'builds'} a stopped server left`);
  }
}

/** A push that is neither its branch's head nor ahead of what is live: ended canceled, never built. */
class StalePush extends Error {}

/** The commit live on the environment, when what it serves was built or deployed from one. */
async function liveCommit(context: BuildServices, projectId: string, environment: string): Promise<string | null> {
  const deployId = (await liveDeploys(context.store.db, projectId)).get(environment);
  if (deployId === undefined) return null;
  return (await findDeployById(context.store.db, deployId))?.git_commit ?? null;
}
