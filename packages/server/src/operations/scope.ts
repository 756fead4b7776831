import { ServiceError } from '@svc/protocol';
import { findProject, findWorkspaceBySlug } from '../store/queries/projects.js';
import type { ProjectRow, WorkspaceRow } from '../store/schema.js';
import type { Db } from '../store/store.js';
import type { Principal } from './context.js';

export interface ProjectInScope {
  readonly workspace: WorkspaceRow;
  readonly project: ProjectRow;
}

/** The workspace, if it exists and the principal may see it; else `not_found`. */
export async function workspaceInScope(db: Db, principal: Principal, slug: string): Promise<WorkspaceRow> {
  const workspace = await findWorkspaceBySlug(db, slug);
  if (!workspace || !canSee(principal, workspace.id)) throw new ServiceError('not_found', `no workspace "${slug}"`);
  return workspace;
}

/** The project, if it exists and the principal may see its workspace; else `not_found`. */
export async function projectInScope(db: Db, principal: Principal, workspaceSlug: string, projectName: string): Promise<ProjectInScope> {
  const workspace = await workspaceInScope(db, principal, workspaceSlug);
  const project = await findProject(db, workspace.id, projectName);
  if (!project) throw new ServiceError('not_found', `no project "${projectName}" in workspace "${workspaceSlug}"`);
  return { workspace, project };
}

export function canSee(principal: Principal, workspaceId: string): boolean {
  return principal.workspaceId === null || principal.workspaceId === workspaceId;
}
