import { projectUploadBytes } from '../store/queries/contents.js';
import type { OperationContext, Principal } from './context.js';
import type { ProjectInput } from './project-config.js';
import { projectInScope } from './scope.js';

/** What a project's stored uploads add up to, and its quota (docs/hosting.md, "Upload quota"). */
export interface UploadUsage {
  readonly bytes: number;
  readonly quotaBytes: number;
}

/** The project's form files and Pinpoints screenshots against its quota: the overview page shows it. */
export async function projectUploadUsage(context: OperationContext, principal: Principal, input: ProjectInput): Promise<UploadUsage> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  return { bytes: await projectUploadBytes(context.store.db, project.id), quotaBytes: context.options.uploadQuotaBytes };
}
