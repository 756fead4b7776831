import { ServiceError } from '@svc/protocol';
import type { CreateProjectResponse, ProjectSummary } from '@svc/protocol/api';
import { ensureWorkspace, findProject, findProjectById, findWorkspaceBySlug, insertProject, listProjects as queryProjects } from '../store/queries/projects.js';
import { listProjectForms } from '../store/queries/forms.js';
import type { ProjectRow } from '../store/schema.js';
import { reservedHostnameReason } from './reserved-hostnames.js';
import { applyPlan } from './apply-plan.js';
import { recordAudit } from './audit-log.js';
import { isAdmin, type OperationContext, type Principal } from './context.js';
import { canSee, visibleWorkspaceIds } from './rights.js';
import { toFormInfo } from './form-info.js';
import { isoTime } from '../lib/iso-time.js';
import { projectDocument } from './project-config.js';
import { refuseSettingsPageName } from './reserved-names.js';
import { workspaceInScope } from './scope.js';
import { validateServiceConfig } from './validate-config.js';

export function toProjectSummary(workspaceSlug: string, project: ProjectRow): ProjectSummary {
  return {
    workspace: workspaceSlug,
    project: project.name,
    framework: project.framework,
    createdAt: isoTime(project.created_at),
    updatedAt: isoTime(project.updated_at),
  };
}

/** The projects the principal can see, in one workspace when `workspace` is given. */
export async function listProjects(context: OperationContext, principal: Principal, input: { workspace?: string | undefined }): Promise<ProjectSummary[]> {
  const db = context.store.db;
  const workspaceIds = input.workspace === undefined ? visibleWorkspaceIds(principal) : [(await workspaceInScope(db, principal, input.workspace)).id];
  const rows = await queryProjects(db, workspaceIds);
  return rows.map(({ project, workspaceSlug }) => toProjectSummary(workspaceSlug, project));
}

/**
 * `svc init`: creates the project that `config` names, and its workspace if new, then
 * applies the rest of the configuration, all in one transaction. Only an admin token may
 * create a workspace; a workspace token creates projects in its own workspace only, and
 * any other workspace is `not_found` to it, whether it exists or not. An existing project
 * is a `conflict` (link to it instead). Names of settings pages are refused (reserved-names.ts).
 */
export async function createProject(context: OperationContext, principal: Principal, input: { config: unknown }): Promise<CreateProjectResponse> {
  const config = await validateServiceConfig(input.config);
  const now = context.now();
  try {
    const result = await context.store.transaction(async (trx) => {
      let workspace = await findWorkspaceBySlug(trx, config.workspace);
      const visible = workspace !== undefined && canSee(principal, workspace.id);
      if (!visible && !isAdmin(principal)) throw new ServiceError('not_found', `no workspace "${config.workspace}"`);
      const workspaceCreated = workspace === undefined;
      if (workspaceCreated) refuseSettingsPageName('workspace', config.workspace);
      refuseSettingsPageName('project', config.project);
      workspace ??= await ensureWorkspace(trx, config.workspace, now);
      if (await findProject(trx, workspace.id, config.project)) throw projectExists(config.workspace, config.project);

      const project = await insertProject(
        trx,
        { workspaceId: workspace.id, name: config.project, framework: config.framework, environments: config.environments, pinpoints: {}, auto: {} },
        now,
      );
      const applied = await applyPlan(trx, project, config, { prune: false, workspaceSlug: workspace.slug, now, classifyFailure: context.store.classifyFailure, reservedHostname: (hostname) => reservedHostnameReason(context, hostname) });
      await recordAudit(trx, context, principal, { action: 'project.created', workspaceId: workspace.id, projectId: project.id, object: { type: 'project', id: project.name } });
      const stored = await findProjectById(trx, project.id);
      const response: CreateProjectResponse = {
        ok: true,
        project: toProjectSummary(workspace.slug, stored),
        workspaceCreated,
        config: await projectDocument(context, trx, workspace.slug, stored),
        forms: (await listProjectForms(trx, project.id)).map((form) => toFormInfo(context, form)),
      };
      return { response, formsChanged: applied.formsChanged };
    });
    if (result.formsChanged) context.forms.invalidate();
    // Its hostnames are served from now on, here and on every other instance.
    context.store.signals.sites.announce();
    return result.response;
  } catch (error) {
    if (context.store.classifyFailure(error) === 'unique') throw projectExists(config.workspace, config.project, error);
    throw error;
  }
}

function projectExists(workspace: string, project: string, cause?: unknown): ServiceError {
  return new ServiceError(
    'conflict',
    `project "${project}" already exists in workspace "${workspace}"; run \`svc link\` to use it`,
    undefined,
    cause === undefined ? undefined : { cause },
  );
}
