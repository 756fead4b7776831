import { ServiceError } from '@svc/protocol';
import type { BuildInfo, BuildLogResponse, EnvironmentName } from '@svc/protocol/api';
import { newId } from '../lib/ids.js';
import { activeBuildsOfWorkspace, findBuild, listBuilds, listBuildsWithLogEnds, lockWorkspaceBuilds, queueBuild, type ListedBuild } from '../store/queries/builds.js';
import type { BuildRow, BuildTrigger, ProjectRow } from '../store/schema.js';
import { recordAuditAs, systemActor } from './audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { environmentNames } from './config-plan.js';
import { isoTime, isoTimeOrNull } from '../lib/iso-time.js';
import type { ProjectInput } from './project-config.js';
import { projectInScope } from './scope.js';

/** Builds from git (docs/hosting.md, "Deploys from git"): queueing them, and what `svc builds` shows. */

/** The environment whose branch this is (the first in production, staging, development order), or null. */
export function environmentOfBranch(project: ProjectRow, branch: string): EnvironmentName | null {
  const environments = JSON.parse(project.environments) as Record<string, { branch?: string } | undefined>;
  return environmentNames.find((name) => environments[name]?.branch === branch) ?? null;
}

/** The branch the project's environment deploys from, or null when it has no such environment. */
export function branchOfEnvironment(project: ProjectRow, environment: string): string | null {
  const environments = JSON.parse(project.environments) as Record<string, { branch?: string } | undefined>;
  return environments[environment]?.branch ?? null;
}

/**
 * Queues a build; a build still queued for the environment is replaced (canceled). Past the
 * workspace's cap of running and queued builds (`--builds-per-workspace`) nothing is
 * queued: `too_many_builds` (docs/hosting.md, "Builds"). Wakes the build workers.
 */
export async function enqueueBuild(
  context: OperationContext,
  project: ProjectRow,
  input: { environment: EnvironmentName; branch: string; commit: string | null; trigger: BuildTrigger; createdBy: string },
): Promise<BuildRow> {
  const now = context.now();
  const row: BuildRow = {
    id: newId('bld', now),
    project_id: project.id,
    environment: input.environment,
    branch: input.branch,
    git_commit: input.commit,
    trigger: input.trigger,
    created_by: input.createdBy,
    state: 'queued',
    error: null,
    log: '',
    deploy_id: null,
    lease_owner: null,
    lease_expires_at: null,
    created_at: now,
    started_at: null,
    finished_at: null,
  };
  await context.store.transaction(async (trx) => {
    // Counted against the workspace's cap one queueing at a time; a build this one replaces is not counted.
    await lockWorkspaceBuilds(trx, project.workspace_id);
    const active = await activeBuildsOfWorkspace(trx, project.workspace_id, { projectId: project.id, environment: input.environment });
    const cap = context.options.builds.perWorkspace;
    if (active >= cap) throw new ServiceError('too_many_builds', `the workspace has ${active} builds running or queued, as many as it may (--builds-per-workspace ${cap}); nothing was queued: push again once one has ended`);
    await queueBuild(trx, row);
    // Only inbound webhooks queue builds: the service acts, named by what called it.
    const actor = systemActor(input.trigger === 'push' ? 'git-push' : 'deploy-hook', input.createdBy);
    await recordAuditAs(trx, context, actor, null, { action: 'build.queued', workspaceId: project.workspace_id, projectId: project.id, object: { type: 'build', id: row.id } });
  });
  // The build workers' own signal, here and on other instances: a form post never wakes them.
  context.store.signals.builds.announce();
  return row;
}

export function toBuildInfo(row: ListedBuild): BuildInfo {
  return {
    id: row.id,
    environment: row.environment as EnvironmentName,
    branch: row.branch,
    commit: row.git_commit,
    trigger: row.trigger,
    createdBy: row.created_by,
    status: row.state,
    error: row.error,
    deploy: row.deploy_id,
    createdAt: isoTime(row.created_at),
    startedAt: isoTimeOrNull(row.started_at),
    finishedAt: isoTimeOrNull(row.finished_at),
  };
}

/** `svc builds list`: newest first. */
export async function listProjectBuilds(
  context: OperationContext,
  principal: Principal,
  input: ProjectInput & { environment?: EnvironmentName | undefined; limit?: number | undefined },
): Promise<{ builds: BuildInfo[] }> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const rows = await listBuilds(context.store.db, project.id, input.environment, input.limit ?? 20);
  return { builds: rows.map(toBuildInfo) };
}

/** A build with the end of its log, for the deploys page: the whole log is `svc builds logs`. */
export interface BuildWithLogTail extends BuildInfo {
  readonly logTail: string;
}

/** The deploys page's builds: newest first, each with its log's last lines (at most 8 KiB). */
export async function listBuildsWithLogTail(context: OperationContext, principal: Principal, input: ProjectInput & { limit: number }): Promise<BuildWithLogTail[]> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const rows = await listBuildsWithLogEnds(context.store.db, project.id, input.limit, 8_192);
  return rows.map((row) => ({ ...toBuildInfo(row), logTail: row.log_end.trimEnd().split('\n').slice(-40).join('\n') }));
}

async function buildInScope(context: OperationContext, principal: Principal, input: ProjectInput & { id: string }): Promise<BuildRow> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const row = await findBuild(context.store.db, project.id, input.id);
  if (!row) throw new ServiceError('not_found', `no build "${input.id}" in project "${input.project}"`);
  return row;
}

/** `svc builds show ID`. */
export async function showBuild(context: OperationContext, principal: Principal, input: ProjectInput & { id: string }): Promise<{ build: BuildInfo }> {
  return { build: toBuildInfo(await buildInScope(context, principal, input)) };
}

/**
 * `svc builds logs ID [--follow]`: the kept log (the last 1 MiB) from `offset` on. The log
 * only grows while the build runs, until it is cut to its last 1 MiB: an offset past the
 * end starts again from the start of what is kept.
 */
export async function buildLog(context: OperationContext, principal: Principal, input: ProjectInput & { id: string; offset?: number | undefined }): Promise<Omit<BuildLogResponse, 'ok'>> {
  const row = await buildInScope(context, principal, input);
  const from = input.offset !== undefined && input.offset <= row.log.length ? input.offset : 0;
  const done = row.state !== 'queued' && row.state !== 'building';
  return { status: row.state, log: row.log.slice(from), offset: row.log.length, done };
}
