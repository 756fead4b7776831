import { sql } from 'kysely';
import type { BackendCapabilities } from '../capabilities.js';
import type { BuildRow } from '../schema.js';
import type { Db } from '../store.js';

/**
 * Queues a build: a build still queued for the same environment is replaced (canceled,
 * saying by which), so at most one waits per environment (`builds_one_queued`).
 */
export async function queueBuild(trx: Db, row: BuildRow): Promise<string[]> {
  const replaced = await trx
    .updateTable('builds')
    .set({ state: 'canceled', error: `replaced by ${row.id}, a newer build of ${row.environment}`, finished_at: row.created_at })
    .where('project_id', '=', row.project_id)
    .where('environment', '=', row.environment)
    .where('state', '=', 'queued')
    .returning('id')
    .execute();
  await trx.insertInto('builds').values(row).execute();
  return replaced.map((entry) => entry.id);
}

/**
 * Leases up to `limit` queued builds whose environment has no build running, in the
 * caller's transaction: round robin across workspaces (docs/hosting.md, "Builds"), so the
 * workspace whose last build started longest ago (or never) goes first, and within it the
 * oldest build. One tenant's queue never holds another tenant's build behind it. On
 * PostgreSQL rows another instance is claiming are skipped; the unique index of building
 * builds per environment is the last word if two meet.
 */
export async function claimQueuedBuilds(trx: Db, capabilities: BackendCapabilities, claim: { limit: number; now: number; owner: string; expiresAt: number }): Promise<BuildRow[]> {
  if (claim.limit <= 0) return [];
  let ready = trx
    .selectFrom('builds as queued')
    .innerJoin('projects as project', 'project.id', 'queued.project_id')
    .select('queued.id')
    .where('queued.state', '=', 'queued')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('builds as running')
            .select('running.id')
            .whereRef('running.project_id', '=', 'queued.project_id')
            .whereRef('running.environment', '=', 'queued.environment')
            .where('running.state', '=', 'building'),
        ),
      ),
    )
    .orderBy((eb) =>
      eb.fn.coalesce(
        eb
          .selectFrom('builds as started')
          .innerJoin('projects as sibling', 'sibling.id', 'started.project_id')
          .select((inner) => inner.fn.max('started.started_at').as('last_started_at'))
          .whereRef('sibling.workspace_id', '=', 'project.workspace_id'),
        sql.lit(0),
      ),
    )
    .orderBy('queued.created_at')
    .limit(claim.limit);
  if (capabilities.skipLocked) ready = ready.forUpdate('queued').skipLocked();
  const ids = (await ready.execute()).map((row) => row.id);
  if (ids.length === 0) return [];
  return trx
    .updateTable('builds')
    .set({ state: 'building', lease_owner: claim.owner, lease_expires_at: claim.expiresAt, started_at: claim.now })
    .where('id', 'in', ids)
    .where('state', '=', 'queued')
    .returningAll()
    .execute();
}

/**
 * Holds the workspace's row until the caller's transaction ends (PostgreSQL; SQLite's write
 * transactions run one at a time anyway), so that two builds queued at once for one
 * workspace are counted against its cap one after the other.
 */
export async function lockWorkspaceBuilds(trx: Db, workspaceId: string): Promise<void> {
  await trx
    .updateTable('workspaces')
    .set((eb) => ({ slug: eb.ref('slug') }))
    .where('id', '=', workspaceId)
    .execute();
}

/**
 * The workspace's builds that are running or queued, but for one still queued for
 * `replacing` (a new build of that environment replaces it): what its cap counts.
 */
export async function activeBuildsOfWorkspace(trx: Db, workspaceId: string, replacing: { projectId: string; environment: string }): Promise<number> {
  const row = await trx
    .selectFrom('builds')
    .innerJoin('projects', 'projects.id', 'builds.project_id')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('projects.workspace_id', '=', workspaceId)
    .where('builds.state', 'in', ['queued', 'building'])
    .where((eb) => eb.not(eb.and([eb('builds.project_id', '=', replacing.projectId), eb('builds.environment', '=', replacing.environment), eb('builds.state', '=', 'queued')])))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Renews a running build's lease; false when this instance no longer holds it. */
export async function renewBuildLease(db: Db, id: string, owner: string, expiresAt: number): Promise<boolean> {
  const result = await db.updateTable('builds').set({ lease_expires_at: expiresAt }).where('id', '=', id).where('state', '=', 'building').where('lease_owner', '=', owner).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateBuildProgress(db: Db, id: string, owner: string, changes: { log?: string; git_commit?: string; deploy_id?: string }): Promise<void> {
  await db.updateTable('builds').set(changes).where('id', '=', id).where('state', '=', 'building').where('lease_owner', '=', owner).execute();
}

/** Ends a running build; false when it was not this instance's running build any more. */
export async function finishBuild(
  db: Db,
  id: string,
  owner: string | null,
  end: { state: 'succeeded' | 'failed' | 'canceled'; error: string | null; log: string; now: number },
): Promise<boolean> {
  let query = db
    .updateTable('builds')
    .set({ state: end.state, error: end.error, log: end.log, finished_at: end.now, lease_owner: null, lease_expires_at: null })
    .where('id', '=', id)
    .where('state', '=', 'building');
  if (owner !== null) query = query.where('lease_owner', '=', owner);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Running builds whose lease ran out before `now`: their server stopped. */
export async function abandonedBuilds(db: Db, now: number, limit: number): Promise<BuildRow[]> {
  return db.selectFrom('builds').selectAll().where('state', '=', 'building').where('lease_expires_at', '<', now).orderBy('lease_expires_at').limit(limit).execute();
}

/** A build as lists show it: everything but its log (up to 1 MiB each). */
export type ListedBuild = Omit<BuildRow, 'log'>;

const listedColumns = ['id', 'project_id', 'environment', 'branch', 'git_commit', 'trigger', 'created_by', 'state', 'error', 'deploy_id', 'lease_owner', 'lease_expires_at', 'created_at', 'started_at', 'finished_at'] as const satisfies readonly (keyof ListedBuild)[];

/** The project's builds, newest first, without their logs. */
export async function listBuilds(db: Db, projectId: string, environment: string | undefined, limit: number): Promise<ListedBuild[]> {
  let query = db.selectFrom('builds').select(listedColumns).where('project_id', '=', projectId);
  if (environment !== undefined) query = query.where('environment', '=', environment);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/** The project's builds, newest first, each with the last `tailChars` characters of its log (cut by the database). */
export async function listBuildsWithLogEnds(db: Db, projectId: string, limit: number, tailChars: number): Promise<(ListedBuild & { log_end: string })[]> {
  const chars = Math.max(1, Math.floor(tailChars));
  return db
    .selectFrom('builds')
    .select(listedColumns)
    .select(sql<string>`case when length(log) > ${chars} then substr(log, length(log) - ${chars - 1}) else log end`.as('log_end'))
    .where('project_id', '=', projectId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function findBuild(db: Db, projectId: string, id: string): Promise<BuildRow | undefined> {
  return db.selectFrom('builds').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

/**
 * Whether any build waits (one read of the `builds_queued` index): the build worker looks
 * before it opens a claiming transaction, since its safety poll wakes it every few seconds.
 */
export async function hasQueuedBuild(db: Db): Promise<boolean> {
  return (await db.selectFrom('builds').select('id').where('state', '=', 'queued').limit(1).executeTakeFirst()) !== undefined;
}

/** Which of `ids` are builds still running (on any instance): their folders are in use. */
export async function runningBuildIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('builds').select('id').where('id', 'in', ids).where('state', '=', 'building').execute();
  return new Set(rows.map((row) => row.id));
}
