import { ServiceError } from '@svc/protocol';
import type { DeployFileEntry, DeployInfo, EnvironmentName, ListDeploysResponse } from '@svc/protocol/api';
import { checkManifest, contentsToUpload } from '../deploys/deploy-manifest.js';
import { siteRulesProblem } from '../deploys/deploy-rules.js';
import { deployInfo, emitDeployEvent, eventDeploy, failDeploy, makeDeployLive, toDeployInfo } from '../deploys/deploy-steps.js';
import { newDeployId } from '../lib/ids.js';
import { storedRulesReader } from '../site-rules/stored-rules.js';
import {
  deployFileSizes,
  insertDeploy,
  listDeploys as listDeployRows,
  liveDeploys,
  previousReadyDeploy,
  setLiveDeploy,
} from '../store/queries/deploys.js';
import { listProjectDomains } from '../store/queries/domains.js';
import type { DeployRow } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { recordAudit } from './audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { actingName } from './rights.js';
import type { ProjectInput } from './project-config.js';
import { environmentNames } from './config-plan.js';
import { deployInScope, projectInScope, type ProjectInScope } from './scope.js';

export interface StartDeployInput extends ProjectInput {
  readonly environment: EnvironmentName;
  readonly branch?: string | undefined;
  readonly commit?: string | undefined;
  readonly files: readonly DeployFileEntry[];
}

/**
 * `svc deploy`, first step: checks the manifest against the limits and what the workspace
 * already stored before anything is uploaded (docs/hosting.md), records the deploy
 * (uploading) with `deploy.started`, and answers which contents the workspace must upload.
 */
export async function startDeploy(context: OperationContext, principal: Principal, input: StartDeployInput): Promise<{ deploy: DeployInfo; missing: string[] }> {
  const bytes = checkManifest(context.options.deployLimits, input.files);
  const { workspace } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const missing = await contentsToUpload(context.store, workspace.id, input.files);
  const now = context.now();
  const { row, scope } = await context.store.transaction(async (trx) => {
    const scope = await projectInScope(trx, principal, input.workspace, input.project);
    const declared = Object.keys(JSON.parse(scope.project.environments) as Record<string, unknown>);
    if (!declared.includes(input.environment)) {
      throw new ServiceError('validation_failed', `the project has no ${input.environment} environment (service.json's environments: ${declared.join(', ')})`, { errors: { environment: 'is not one of the project\'s environments' } });
    }
    const row: DeployRow = {
      id: newDeployId(now),
      project_id: scope.project.id,
      environment: input.environment,
      state: 'uploading',
      branch: input.branch ?? null,
      git_commit: input.commit ?? null,
      file_count: input.files.length,
      total_bytes: bytes,
      error: null,
      created_by: await actingName(trx, principal, scope.workspace.id),
      created_at: now,
      touched_at: now,
      finished_at: null,
      source: null,
    };
    await insertDeploy(trx, row, input.files.map((file) => ({ deploy_id: row.id, path: file.path, sha256: file.sha256, size: file.size })));
    await emitDeployEvent(trx, scope, 'deploy.started', { deploy: await eventDeploy(trx, context, scope.project, row) }, now);
    await recordAudit(trx, context, principal, { action: 'deploy.created', workspaceId: scope.workspace.id, projectId: scope.project.id, object: { type: 'deploy', id: row.id } });
    return { row, scope };
  });
  context.store.signals.events.announce();
  return { deploy: await deployInfo(context.store.db, context, scope.project, row), missing };
}

/**
 * `svc deploy`, last step: every content is stored and its workspace's, so the deploy becomes
 * live for its environment: the state, the environment's pointer and `deploy.succeeded` in
 * one transaction.
 */
export async function finalizeDeploy(context: OperationContext, principal: Principal, input: ProjectInput & { id: string }): Promise<{ deploy: DeployInfo }> {
  const { row, workspace } = await deployInScope(context.store.db, principal, input);
  if (row.state !== 'uploading') throw new ServiceError('conflict', `deploy ${row.id} is ${row.state === 'failed' ? 'failed' : 'finished already'}`);
  const files = await deployFileSizes(context.store.db, row.id);
  const missing = await contentsToUpload(context.store, workspace.id, files);
  if (missing.length > 0) throw new ServiceError('conflict', `${missing.length} of the deploy's files are not uploaded yet`, { missing: missing.slice(0, 100) });
  // Rules that do not parse fail the deploy, naming the file and line; what was live stays live.
  const problem = await siteRulesProblem(storedRulesReader(context.store.files, (path) => Promise.resolve(files.find((file) => file.path === path)?.sha256)));
  if (problem !== null) {
    await context.store.transaction(async (trx) => failDeploy(trx, context, await projectInScope(trx, principal, input.workspace, input.project), row, problem.message, context.now()));
    context.store.signals.events.announce();
    throw problem;
  }
  const now = context.now();
  const result = await context.store.transaction(async (trx) => {
    const scope = await projectInScope(trx, principal, input.workspace, input.project);
    return { scope, finished: await makeDeployLive(trx, context, scope, row, now) };
  });
  context.store.signals.events.announce();
  context.store.signals.sites.announce();
  return { deploy: await deployInfo(context.store.db, context, result.scope.project, result.finished) };
}

/** `svc deploys list`: newest first, with what each environment serves. */
export async function listProjectDeploys(
  context: OperationContext,
  principal: Principal,
  input: ProjectInput & { environment?: EnvironmentName | undefined; limit?: number | undefined },
): Promise<Omit<ListDeploysResponse, 'ok'>> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const rows = await listDeployRows(context.store.db, project.id, input.environment, input.limit ?? 20);
  const live = await liveDeploys(context.store.db, project.id);
  const domains = await listProjectDomains(context.store.db, project.id);
  return {
    deploys: rows.map((row) => toDeployInfo(context, row, live, domains)),
    live: { production: live.get('production') ?? null, staging: live.get('staging') ?? null, development: live.get('development') ?? null },
  };
}

/**
 * What `rollback` without an id would serve on each environment: the finished deploy of the
 * environment made before the live one; null where nothing is live or nothing came before.
 */
export async function rollbackTargets(context: OperationContext, principal: Principal, input: ProjectInput): Promise<Record<EnvironmentName, string | null>> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const live = await liveDeploys(context.store.db, project.id);
  const targets = await Promise.all(
    environmentNames.map(async (environment) => {
      const current = live.get(environment);
      return [environment, current === undefined ? null : ((await previousReadyDeploy(context.store.db, project.id, environment, current))?.id ?? null)] as const;
    }),
  );
  return Object.fromEntries(targets) as Record<EnvironmentName, string | null>;
}

/** `svc deploys promote ID --to ENV`: the environment serves that finished deploy, at once. */
export async function promoteDeploy(context: OperationContext, principal: Principal, input: ProjectInput & { id: string; to: EnvironmentName }) {
  return switchLive(context, principal, input, input.to, 'deploy.promoted', async (trx) => (await deployInScope(trx, principal, input)).row);
}

/** `svc deploys rollback --environment E [ID]`: back to `ID`, or to the deploy before the one live now. */
export async function rollbackDeploy(context: OperationContext, principal: Principal, input: ProjectInput & { environment: EnvironmentName; id?: string | undefined }) {
  return switchLive(context, principal, input, input.environment, 'deploy.rolled_back', async (trx, scope, current) => {
    if (input.id !== undefined) return (await deployInScope(trx, principal, { ...input, id: input.id })).row;
    if (current === null) throw new ServiceError('conflict', `nothing is live on ${input.environment}, so there is nothing to roll back`);
    const previous = await previousReadyDeploy(trx, scope.project.id, input.environment, current);
    if (!previous) throw new ServiceError('conflict', `${input.environment} has no finished deploy before ${current} to roll back to`);
    return previous;
  });
}

async function switchLive(
  context: OperationContext,
  principal: Principal,
  input: ProjectInput,
  environment: EnvironmentName,
  action: 'deploy.promoted' | 'deploy.rolled_back',
  choose: (trx: Db, scope: ProjectInScope, current: string | null) => Promise<DeployRow>,
): Promise<{ deploy: DeployInfo; environment: EnvironmentName; previous: string | null; changed: boolean }> {
  const now = context.now();
  const result = await context.store.transaction(async (trx) => {
    const scope = await projectInScope(trx, principal, input.workspace, input.project);
    const declared = Object.keys(JSON.parse(scope.project.environments) as Record<string, unknown>);
    if (!declared.includes(environment)) throw new ServiceError('validation_failed', `the project has no ${environment} environment`, { errors: { environment: 'is not one of the project\'s environments' } });
    const current = (await liveDeploys(trx, scope.project.id)).get(environment) ?? null;
    const target = await choose(trx, scope, current);
    if (target.state !== 'ready') throw new ServiceError('conflict', `deploy ${target.id} is ${target.state}; only a finished deploy can go live`);
    if (current === target.id) return { scope, target, previous: current, changed: false };
    await setLiveDeploy(trx, scope.project.id, environment, target.id, now);
    await emitDeployEvent(trx, scope, 'deploy.promoted', { deploy: await eventDeploy(trx, context, scope.project, target), promotion: { environment, previous: current } }, now);
    await recordAudit(trx, context, principal, { action, workspaceId: scope.workspace.id, projectId: scope.project.id, object: { type: 'deploy', id: target.id } });
    return { scope, target, previous: current, changed: true };
  });
  if (result.changed) {
    context.store.signals.events.announce();
    context.store.signals.sites.announce();
  }
  return { deploy: await deployInfo(context.store.db, context, result.scope.project, result.target), environment, previous: result.previous, changed: result.changed };
}

