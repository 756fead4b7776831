import type { DeployHookRow, GitConnectionRow } from '../schema.js';
import type { Db } from '../store.js';

/** Sets the project's repository, replacing the one before (and with it the push secret). */
export async function upsertGitConnection(db: Db, row: GitConnectionRow): Promise<void> {
  await db
    .insertInto('git_connections')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('project_id').doUpdateSet({ id: row.id, repo_url: row.repo_url, token_sealed: row.token_sealed, push_secret_sealed: row.push_secret_sealed, updated_at: row.updated_at }),
    )
    .execute();
}

export async function findGitConnection(db: Db, projectId: string): Promise<GitConnectionRow | undefined> {
  return db.selectFrom('git_connections').selectAll().where('project_id', '=', projectId).executeTakeFirst();
}

export async function findGitConnectionById(db: Db, id: string): Promise<GitConnectionRow | undefined> {
  return db.selectFrom('git_connections').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertDeployHook(db: Db, row: DeployHookRow): Promise<void> {
  await db.insertInto('deploy_hooks').values(row).execute();
}

export async function listDeployHooks(db: Db, projectId: string): Promise<DeployHookRow[]> {
  return db.selectFrom('deploy_hooks').selectAll().where('project_id', '=', projectId).orderBy('id', 'desc').execute();
}

export async function findDeployHookBySecretHash(db: Db, secretHash: string): Promise<DeployHookRow | undefined> {
  return db.selectFrom('deploy_hooks').selectAll().where('secret_hash', '=', secretHash).executeTakeFirst();
}

export async function deleteDeployHook(db: Db, projectId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('deploy_hooks').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function markDeployHookUsed(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('deploy_hooks').set({ last_used_at: now }).where('id', '=', id).execute();
}
