import type { DeployInfo as EventDeploy, EventDataMap } from '@svc/protocol';
import { EnvironmentName, type DeployInfo, type DeploySource } from '@svc/protocol/api';
import { ServiceError } from '@svc/protocol';
import { newDeployId, newId } from '../lib/ids.js';
import { isoTime, isoTimeOrNull } from '../lib/iso-time.js';
import { finishDeploy, insertDeploy, liveDeploys, setLiveDeploy } from '../store/queries/deploys.js';
import { listProjectDomains } from '../store/queries/domains.js';
import { insertEvent } from '../store/queries/outbox.js';
import type { DeployRow, ProjectRow, WorkspaceRow } from '../store/schema.js';
import type { Db } from '../store/store.js';

/**
 * The steps every deploy goes through, from `svc deploy` or built from git (docs/hosting.md):
 * started, live or failed, each with its `deploy.*` event in the caller's transaction, and
 * a deploy as answers and events show it.
 */

/** The project a deploy is of, and its workspace (events name both). */
export interface DeployScope {
  readonly project: ProjectRow;
  readonly workspace: WorkspaceRow;
}

/** Where sites answer, for a deploy's URLs: the service's base URL and `--preview-domain`. */
export interface DeploySiting {
  readonly urls: { readonly baseUrl: string };
  readonly options: { readonly previewDomain: string };
}

/** The environments in the order answers list them (production, staging, development). */
const environmentNames = EnvironmentName.anyOf.map((literal) => literal.const);

/**
 * An uploading deploy whose every file is stored goes live for its environment: its state,
 * the environment's pointer and `deploy.succeeded`, in the caller's transaction. The last
 * step of every deploy, from `svc deploy` or built from git.
 */
export async function makeDeployLive(trx: Db, context: DeploySiting, scope: DeployScope, row: DeployRow, now: number): Promise<DeployRow> {
  if (!(await finishDeploy(trx, row.id, 'ready', now))) throw new ServiceError('conflict', `deploy ${row.id} is not uploading any more`);
  await setLiveDeploy(trx, scope.project.id, row.environment, row.id, now);
  const finished: DeployRow = { ...row, state: 'ready', finished_at: now, touched_at: now };
  await emitDeployEvent(trx, scope, 'deploy.succeeded', { deploy: await eventDeploy(trx, context, scope.project, finished) }, now);
  return finished;
}

/** A deploy built from git starts with its build: recorded uploading and empty, with `deploy.started`, in the caller's transaction. */
export async function startBuiltDeploy(
  trx: Db,
  context: DeploySiting,
  scope: DeployScope,
  input: { environment: string; branch: string; commit: string | null; source: DeploySource; createdBy: string },
  now: number,
): Promise<DeployRow> {
  const row: DeployRow = {
    id: newDeployId(now),
    project_id: scope.project.id,
    environment: input.environment,
    state: 'uploading',
    branch: input.branch,
    git_commit: input.commit,
    file_count: 0,
    total_bytes: 0,
    error: null,
    created_by: input.createdBy,
    created_at: now,
    touched_at: now,
    finished_at: null,
    source: JSON.stringify(input.source),
  };
  await insertDeploy(trx, row, []);
  await emitDeployEvent(trx, scope, 'deploy.started', { deploy: await eventDeploy(trx, context, scope.project, row) }, now);
  return row;
}

/** An uploading deploy fails with `deploy.failed` saying why, in the caller's transaction; false when it had finished already. */
export async function failDeploy(trx: Db, context: DeploySiting, scope: DeployScope, row: DeployRow, reason: string, now: number): Promise<boolean> {
  if (!(await finishDeploy(trx, row.id, 'failed', now, reason))) return false;
  const failedRow: DeployRow = { ...row, state: 'failed', finished_at: now, error: reason };
  await emitDeployEvent(trx, scope, 'deploy.failed', { deploy: await eventDeploy(trx, context, scope.project, failedRow) }, now);
  return true;
}

/** Writes a `deploy.*` event; its `data` is typed by the event catalog (@svc/protocol). */
export async function emitDeployEvent<T extends `deploy.${string}` & keyof EventDataMap>(trx: Db, scope: DeployScope, type: T, data: EventDataMap[T], now: number): Promise<void> {
  const id = newId('evt', now);
  const payload = JSON.stringify({ id, type, createdAt: isoTime(now), workspace: scope.workspace.slug, project: scope.project.name, data });
  await insertEvent(trx, { id, projectId: scope.project.id, type, payload, now });
}

export async function eventDeploy(db: Db, context: DeploySiting, project: ProjectRow, row: DeployRow): Promise<EventDeploy> {
  const { createdBy: _createdBy, ...info } = await deployInfo(db, context, project, row);
  return info;
}

export async function deployInfo(db: Db, context: DeploySiting, project: ProjectRow, row: DeployRow): Promise<DeployInfo> {
  return toDeployInfo(context, row, await liveDeploys(db, project.id), await listProjectDomains(db, project.id));
}

export function toDeployInfo(context: DeploySiting, row: DeployRow, live: Map<string, string>, domains: readonly { hostname: string; environment: string }[]): DeployInfo {
  const liveIn = environmentNames.filter((environment) => live.get(environment) === row.id);
  const state = row.state === 'uploading' ? 'uploading' : row.state === 'failed' ? 'failed' : liveIn.length > 0 ? 'live' : 'superseded';
  const domain = domains.find((entry) => entry.environment === row.environment);
  return {
    id: row.id,
    environment: row.environment as EnvironmentName,
    state,
    liveIn,
    branch: row.branch,
    commit: row.git_commit,
    files: row.file_count,
    bytes: row.total_bytes,
    url: domain ? siteUrl(context.urls.baseUrl, domain.hostname) : null,
    previewUrl: siteUrl(context.urls.baseUrl, `${row.id}.${context.options.previewDomain}`),
    error: row.error,
    source: row.source === null ? null : (JSON.parse(row.source) as DeploySource),
    createdBy: row.created_by,
    createdAt: isoTime(row.created_at),
    finishedAt: isoTimeOrNull(row.finished_at),
  };
}

/** The base URL with another hostname: the scheme and port the service answers on. */
export function siteUrl(baseUrl: string, hostname: string): string {
  try {
    const url = new URL(baseUrl);
    url.hostname = hostname;
    return url.origin;
  } catch {
    return `http://${hostname}`;
  }
}
