import type { Db } from '../store.js';

/**
 * Who holds stored contents (docs/privacy.md, "Files and who holds them"): the files of a
 * submission (`submission_contents`), the screenshot of a request, and what a workspace
 * uploaded for its deploys (`workspace_contents`). A content nothing holds is removed.
 */

/** Hashes per IN list: well under both backends' limits on bound parameters. */
const perQuery = 500;

/** Which of `sha256s` nothing holds any more: no submission's files, no request's screenshot, no workspace's uploads. */
export async function unheldContents(db: Db, sha256s: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(sha256s)];
  const held = new Set<string>();
  for (let index = 0; index < wanted.length; index += perQuery) {
    const slice = wanted.slice(index, index + perQuery);
    const rows = await db
      .selectFrom('submission_contents')
      .select('sha256')
      .where('sha256', 'in', slice)
      .union(db.selectFrom('requests').select('screenshot_sha256 as sha256').where('screenshot_sha256', 'in', slice).$narrowType<{ sha256: string }>())
      .union(db.selectFrom('workspace_contents').select('sha256').where('sha256', 'in', slice))
      .execute();
    for (const row of rows) held.add(row.sha256);
  }
  return wanted.filter((sha256) => !held.has(sha256));
}

/** Which of `sha256s` the workspace uploaded for its deploys: the contents its deploys may use. */
export async function workspaceContents(db: Db, workspaceId: string, sha256s: readonly string[]): Promise<Set<string>> {
  const wanted = [...new Set(sha256s)];
  const held = new Set<string>();
  for (let index = 0; index < wanted.length; index += perQuery) {
    const rows = await db.selectFrom('workspace_contents').select('sha256').where('workspace_id', '=', workspaceId).where('sha256', 'in', wanted.slice(index, index + perQuery)).execute();
    for (const row of rows) held.add(row.sha256);
  }
  return held;
}

/** Records that the workspace uploaded these contents (it had the bytes); nothing when it already did. */
export async function addWorkspaceContent(db: Db, workspaceId: string, sha256: string, now: number): Promise<void> {
  await db
    .insertInto('workspace_contents')
    .values({ workspace_id: workspaceId, sha256, created_at: now })
    .onConflict((conflict) => conflict.columns(['workspace_id', 'sha256']).doNothing())
    .execute();
}

/** Bytes the project's submissions' files and requests' screenshots add up to (the upload quota, docs/hosting.md). */
export async function projectUploadBytes(db: Db, projectId: string): Promise<number> {
  const files = await db
    .selectFrom('submission_contents')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('bytes'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  const screenshots = await db
    .selectFrom('requests')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('screenshot_size'), eb.lit(0)).as('bytes'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(files.bytes) + Number(screenshots.bytes);
}

/** Whether any deploy lists one of `sha256s` (hosting may hold such contents in memory). */
export async function deploysList(db: Db, sha256s: readonly string[]): Promise<boolean> {
  for (let index = 0; index < sha256s.length; index += perQuery) {
    const row = await db.selectFrom('deploy_files').select('sha256').where('sha256', 'in', sha256s.slice(index, index + perQuery)).limit(1).executeTakeFirst();
    if (row) return true;
  }
  return false;
}
