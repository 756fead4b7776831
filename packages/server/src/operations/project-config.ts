import type { ApplyConfigResponse, ServiceConfigDocument } from '@svc/protocol/api';
import { listProjectDomains } from '../store/queries/domains.js';
import { listProjectForms } from '../store/queries/forms.js';
import type { ProjectRow } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { applyPlan } from './apply-plan.js';
import { releaseContents } from '../deploys/stored-contents.js';
import { configDocument } from './config-document.js';
import { recordAudit } from './audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { toFormInfo } from './form-info.js';
import { projectInScope } from './scope.js';
import { validateServiceConfig } from './validate-config.js';

export interface ProjectInput {
  readonly workspace: string;
  readonly project: string;
}

/** The address of the schema, as `$schema` of every document the service writes. */
export function schemaUrl(context: OperationContext): string {
  return `${context.urls.baseUrl}/schema/service.json`;
}

/** A project's state as service.json (what `svc link` and `svc pull` write). */
export async function readProjectConfig(context: OperationContext, principal: Principal, input: ProjectInput): Promise<ServiceConfigDocument> {
  const { workspace, project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  return projectDocument(context, context.store.db, workspace.slug, project);
}

export async function projectDocument(context: OperationContext, db: Db, workspaceSlug: string, project: ProjectRow): Promise<ServiceConfigDocument> {
  const [forms, domains] = [await listProjectForms(db, project.id), await listProjectDomains(db, project.id)];
  return configDocument({ schemaUrl: schemaUrl(context), workspaceSlug, project, forms, domains });
}

export interface ApplyConfigInput extends ProjectInput {
  /** The service.json document; its own `workspace` and `project` are not used. */
  readonly config: unknown;
  readonly prune: boolean;
  readonly dryRun: boolean;
}

class DryRunRollback extends Error {
  constructor(readonly result: ApplyConfigResponse) {
    super('dry run: rolled back');
  }
}

/**
 * `svc push`: applies a configuration to an existing project in one transaction. Applying
 * what is already in place writes nothing and reports no change. A dry run does all the
 * work, reports it, and rolls it back.
 */
export async function applyConfig(context: OperationContext, principal: Principal, input: ApplyConfigInput): Promise<ApplyConfigResponse> {
  const config = await validateServiceConfig(input.config);
  let formsChanged = false;
  let prunedFiles: readonly string[] = [];
  try {
    const result = await context.store.transaction(async (trx) => {
      const { workspace, project } = await projectInScope(trx, principal, input.workspace, input.project);
      const applied = await applyPlan(trx, project, config, { prune: input.prune, workspaceSlug: workspace.slug, now: context.now(), classifyFailure: context.store.classifyFailure });
      formsChanged = applied.formsChanged;
      prunedFiles = applied.prunedFiles;
      const forms = await listProjectForms(trx, project.id);
      const listed = new Map((config.forms ?? []).map((form, index) => [form.slug, index]));
      const response: ApplyConfigResponse = {
        ok: true,
        project: { workspace: workspace.slug, project: project.name },
        dryRun: input.dryRun,
        changed: applied.changes.length > 0,
        changes: applied.changes,
        forms: forms
          .filter((form) => listed.has(form.slug))
          .sort((a, b) => (listed.get(a.slug) ?? 0) - (listed.get(b.slug) ?? 0))
          .map((form) => toFormInfo(context, form)),
        keptForms: forms.filter((form) => applied.keptSlugs.includes(form.slug)).map((form) => toFormInfo(context, form)),
        prunedForms: [...applied.pruned],
      };
      // Written before a dry run rolls back, so the rollback takes the entry with the change.
      if (response.changed) await recordAudit(trx, context, principal, { action: 'config.pushed', workspaceId: workspace.id, projectId: project.id });
      if (input.dryRun) throw new DryRunRollback(response);
      return response;
    });
    if (formsChanged) context.forms.invalidate();
    // Hostnames or the widget's environments may have changed: hosting re-reads them.
    if (result.changed) context.store.signals.sites.announce();
    if (result.prunedForms.length > 0) {
      // Pruned submissions were erased as `svc submissions delete` erases one: then their files go too.
      context.store.signals.events.announce();
      await releaseContents(context.store, prunedFiles);
      await context.store.scrubDeleted();
    }
    return result;
  } catch (error) {
    if (error instanceof DryRunRollback) return error.result;
    throw error;
  }
}
