import { newId, newWidgetKey } from '../../lib/ids.js';
import type { ProjectRow, WorkspaceRow } from '../schema.js';
import type { Db } from '../store.js';

export async function findWorkspaceBySlug(db: Db, slug: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('slug', '=', slug).executeTakeFirst();
}

/** The workspaces with these slugs (those that exist), in one query. */
export async function findWorkspacesBySlugs(db: Db, slugs: readonly string[]): Promise<WorkspaceRow[]> {
  if (slugs.length === 0) return [];
  return db.selectFrom('workspaces').selectAll().where('slug', 'in', [...slugs]).execute();
}

/** The slugs of these workspaces, in order, in one query. */
export async function workspaceSlugsOf(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('workspaces').select('slug').where('id', 'in', [...ids]).orderBy('slug').execute()).map((row) => row.slug);
}

/** Every workspace's slug, in order. */
export async function listWorkspaceSlugs(db: Db): Promise<string[]> {
  return (await db.selectFrom('workspaces').select('slug').orderBy('slug').execute()).map((row) => row.slug);
}

/** The workspace with this slug, created if it does not exist yet. */
export async function ensureWorkspace(db: Db, slug: string, now = Date.now()): Promise<WorkspaceRow> {
  await db
    .insertInto('workspaces')
    .values({ id: newId('ws', now), slug, created_at: now })
    .onConflict((conflict) => conflict.column('slug').doNothing())
    .execute();
  const row = await findWorkspaceBySlug(db, slug);
  if (!row) throw new Error(`workspace ${slug} vanished after it was created`);
  return row;
}

export interface NewProject {
  workspaceId: string;
  name: string;
  framework: string;
  environments: unknown;
  pinpoints: unknown;
  auto: unknown;
}

export async function insertProject(db: Db, project: NewProject, now = Date.now()): Promise<ProjectRow> {
  const row: ProjectRow = {
    id: newId('prj', now),
    workspace_id: project.workspaceId,
    name: project.name,
    framework: project.framework,
    environments: JSON.stringify(project.environments),
    pinpoints: JSON.stringify(project.pinpoints),
    auto: JSON.stringify(project.auto),
    widget_key: newWidgetKey(),
    request_retention_seconds: null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('projects').values(row).execute();
  return row;
}

export async function findProject(db: Db, workspaceId: string, name: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId).where('name', '=', name).executeTakeFirst();
}

export interface ProjectListing {
  project: ProjectRow;
  workspaceSlug: string;
}

/** Projects ordered by workspace slug then name; only `workspaceId`'s when given. */
/** The projects of these workspaces (null: of every workspace). */
export async function listProjects(db: Db, workspaceIds: readonly string[] | null): Promise<ProjectListing[]> {
  let query = db
    .selectFrom('projects')
    .innerJoin('workspaces', 'workspaces.id', 'projects.workspace_id')
    .selectAll('projects')
    .select('workspaces.slug as workspace_slug')
    .orderBy('workspaces.slug')
    .orderBy('projects.name');
  if (workspaceIds !== null) {
    if (workspaceIds.length === 0) return [];
    query = query.where('projects.workspace_id', 'in', workspaceIds);
  }
  const rows = await query.execute();
  return rows.map(({ workspace_slug, ...project }) => ({ project, workspaceSlug: workspace_slug }));
}

export type ProjectSettings = Pick<ProjectRow, 'framework' | 'environments' | 'pinpoints' | 'auto'>;

export async function updateProjectSettings(db: Db, projectId: string, settings: Partial<ProjectSettings>, now = Date.now()): Promise<void> {
  await db
    .updateTable('projects')
    .set({ ...settings, updated_at: now })
    .where('id', '=', projectId)
    .execute();
}

/**
 * Takes the project's row lock for the rest of the transaction (PostgreSQL), so two
 * configurations applied at once to one project are applied one after the other. SQLite
 * transactions already hold the database's write lock from their start.
 */
export async function lockProject(db: Db, projectId: string): Promise<void> {
  await db
    .updateTable('projects')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', projectId)
    .execute();
}

export async function findProjectById(db: Db, id: string): Promise<ProjectRow> {
  return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The project whose Pinpoints widget has this key, with its workspace's slug. */
export async function findProjectByWidgetKey(db: Db, key: string): Promise<ProjectListing | undefined> {
  const row = await db
    .selectFrom('projects')
    .innerJoin('workspaces', 'workspaces.id', 'projects.workspace_id')
    .selectAll('projects')
    .select('workspaces.slug as workspace_slug')
    .where('projects.widget_key', '=', key)
    .executeTakeFirst();
  if (!row) return undefined;
  const { workspace_slug, ...project } = row;
  return { project, workspaceSlug: workspace_slug };
}

/** The project's widget key, made now for a project created before keys existed. */
export async function ensureWidgetKey(db: Db, project: Pick<ProjectRow, 'id' | 'widget_key'>): Promise<string> {
  if (project.widget_key !== null) return project.widget_key;
  await db.updateTable('projects').set({ widget_key: newWidgetKey() }).where('id', '=', project.id).where('widget_key', 'is', null).execute();
  const row = await db.selectFrom('projects').select('widget_key').where('id', '=', project.id).executeTakeFirstOrThrow();
  if (row.widget_key === null) throw new Error(`project ${project.id} has no widget key after one was set`);
  return row.widget_key;
}

export async function findWorkspaceById(db: Db, id: string): Promise<WorkspaceRow> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
