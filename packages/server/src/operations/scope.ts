import { ServiceError } from '@svc/protocol';
import { deployIdPattern } from '../lib/ids.js';
import { findDeploy } from '../store/queries/deploys.js';
import { findProject, findWorkspaceBySlug } from '../store/queries/projects.js';
import type { DeployRow, ProjectRow, WorkspaceRow } from '../store/schema.js';
import type { Db } from '../store/store.js';
import type { Principal } from './context.js';
import { canSee } from './rights.js';

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

/** A deploy of the project, if the principal may see the project; else `not_found`. */
export async function deployInScope(db: Db, principal: Principal, input: { workspace: string; project: string; id: string }): Promise<ProjectInScope & { row: DeployRow }> {
  const scope = await projectInScope(db, principal, input.workspace, input.project);
  const row = deployIdPattern.test(input.id) ? await findDeploy(db, scope.project.id, input.id) : undefined;
  if (!row) throw new ServiceError('not_found', `no deploy "${input.id}" in project "${input.project}"`);
  return { ...scope, row };
}

export { canSee } from './rights.js';
