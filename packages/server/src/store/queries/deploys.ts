import type { DeployFileRow, DeployRow } from '../schema.js';
import type { Db } from '../store.js';

export async function insertDeploy(db: Db, deploy: DeployRow, files: readonly DeployFileRow[]): Promise<void> {
  await db.insertInto('deploys').values(deploy).execute();
  for (let index = 0; index < files.length; index += 500) {
    await db.insertInto('deploy_files').values(files.slice(index, index + 500)).execute();
  }
}

export async function findDeploy(db: Db, projectId: string, id: string): Promise<DeployRow | undefined> {
  return db.selectFrom('deploys').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

export async function findDeployById(db: Db, id: string): Promise<DeployRow | undefined> {
  return db.selectFrom('deploys').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The project's deploys, newest first; only one environment's when given. */
export async function listDeploys(db: Db, projectId: string, environment: string | undefined, limit: number): Promise<DeployRow[]> {
  let query = db.selectFrom('deploys').selectAll().where('project_id', '=', projectId);
  if (environment !== undefined) query = query.where('environment', '=', environment);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/** The size the deploy declares for these contents; undefined when it lists no file with them. */
export async function declaredContentSize(db: Db, deployId: string, sha256: string): Promise<number | undefined> {
  const row = await db.selectFrom('deploy_files').select('size').where('deploy_id', '=', deployId).where('sha256', '=', sha256).limit(1).executeTakeFirst();
  return row === undefined ? undefined : Number(row.size);
}

/** Every file of the deploy, as declared: its path, contents and size. */
export async function deployFileSizes(db: Db, deployId: string): Promise<{ path: string; sha256: string; size: number }[]> {
  return db.selectFrom('deploy_files').select(['path', 'sha256', 'size']).where('deploy_id', '=', deployId).execute();
}

export async function findDeployFile(db: Db, deployId: string, path: string): Promise<DeployFileRow | undefined> {
  return db.selectFrom('deploy_files').selectAll().where('deploy_id', '=', deployId).where('path', '=', path).executeTakeFirst();
}

export async function touchDeploy(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('deploys').set({ touched_at: now }).where('id', '=', id).where('state', '=', 'uploading').execute();
}

/** Moves an uploading deploy on; false when it was not uploading any more (finished or failed meanwhile). */
export async function finishDeploy(db: Db, id: string, state: 'ready' | 'failed', now: number, error: string | null = null): Promise<boolean> {
  const result = await db.updateTable('deploys').set({ state, finished_at: now, touched_at: now, error }).where('id', '=', id).where('state', '=', 'uploading').executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Uploads idle since before `before`: the ones a crash or a vanished client left behind. */
/** Uploads by `svc deploy` idle since before `before`; a build's deploy (with a git source) is the build worker's to end. */
export async function staleUploads(db: Db, before: number, limit: number): Promise<DeployRow[]> {
  return db.selectFrom('deploys').selectAll().where('state', '=', 'uploading').where('source', 'is', null).where('touched_at', '<', before).orderBy('touched_at').limit(limit).execute();
}

/** The deploy each environment of the project serves. */
export async function liveDeploys(db: Db, projectId: string): Promise<Map<string, string>> {
  const rows = await db.selectFrom('live_deploys').select(['environment', 'deploy_id']).where('project_id', '=', projectId).execute();
  return new Map(rows.map((row) => [row.environment, row.deploy_id]));
}

/** Points the environment at the deploy (one statement: what is served switches at once). */
export async function setLiveDeploy(db: Db, projectId: string, environment: string, deployId: string, now: number): Promise<void> {
  await db
    .insertInto('live_deploys')
    .values({ project_id: projectId, environment, deploy_id: deployId, updated_at: now })
    .onConflict((conflict) => conflict.columns(['project_id', 'environment']).doUpdateSet({ deploy_id: deployId, updated_at: now }))
    .execute();
}

/** The newest ready deploy of the environment made before `beforeId`: what a rollback goes back to. */
export async function previousReadyDeploy(db: Db, projectId: string, environment: string, beforeId: string): Promise<DeployRow | undefined> {
  return db
    .selectFrom('deploys')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('environment', '=', environment)
    .where('state', '=', 'ready')
    .where('id', '<', beforeId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** What a hostname serves: the project and environment whose domains list it, and that environment's live deploy. */
export async function hostedSite(db: Db, hostname: string): Promise<{ projectId: string; environment: string; deployId: string | null } | undefined> {
  const row = await db
    .selectFrom('domains')
    .leftJoin('live_deploys', (join) => join.onRef('live_deploys.project_id', '=', 'domains.project_id').onRef('live_deploys.environment', '=', 'domains.environment'))
    .select(['domains.project_id as projectId', 'domains.environment as environment', 'live_deploys.deploy_id as deployId'])
    .where('domains.hostname', '=', hostname)
    .executeTakeFirst();
  return row ? { projectId: row.projectId, environment: row.environment, deployId: row.deployId ?? null } : undefined;
}

/** Up to `limit` files of the deploy. */
export async function deployFiles(db: Db, deployId: string, limit: number): Promise<DeployFileRow[]> {
  return db.selectFrom('deploy_files').selectAll().where('deploy_id', '=', deployId).limit(limit).execute();
}

/** A deploy built on the server gets its files once its build has made them; it stays uploading. */
export async function setDeployFiles(db: Db, deployId: string, files: readonly DeployFileRow[], bytes: number, now: number): Promise<void> {
  await db.deleteFrom('deploy_files').where('deploy_id', '=', deployId).execute();
  for (let index = 0; index < files.length; index += 500) {
    await db.insertInto('deploy_files').values(files.slice(index, index + 500)).execute();
  }
  await db.updateTable('deploys').set({ file_count: files.length, total_bytes: bytes, touched_at: now }).where('id', '=', deployId).execute();
}
