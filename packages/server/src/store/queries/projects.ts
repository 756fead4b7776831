import { newId } from '../../ids.js';
import type { ProjectRow, WorkspaceRow } from '../schema.js';
import type { Db } from '../store.js';

export async function findWorkspaceBySlug(db: Db, slug: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('slug', '=', slug).executeTakeFirst();
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
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('projects').values(row).execute();
  return row;
}

export async function findProject(db: Db, workspaceId: string, name: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId).where('name', '=', name).executeTakeFirst();
}
