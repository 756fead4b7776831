import { randomBytes } from 'node:crypto';
import { newEndpointId } from '../../packages/server/src/ids.js';
import { insertForm } from '../../packages/server/src/store/queries/forms.js';
import { ensureWorkspace, findProject, insertProject } from '../../packages/server/src/store/queries/projects.js';
import type { Store } from '../../packages/server/src/store/store.js';

export interface FormFixture {
  readonly workspace: string;
  readonly project: string;
  readonly projectId: string;
  readonly formId: string;
  readonly endpointId: string;
  readonly slug: string;
}

/** Creates (through the store) a form in a project, making the workspace and project if needed. */
export async function createForm(
  store: Store,
  options: { workspace?: string; project?: string; slug?: string; name?: string; rateLimit?: { max: number; windowSeconds: number } } = {},
): Promise<FormFixture> {
  const workspace = options.workspace ?? `ws-${randomBytes(3).toString('hex')}`;
  const project = options.project ?? 'site';
  const slug = options.slug ?? `form-${randomBytes(3).toString('hex')}`;
  return store.transaction(async (trx) => {
    const ws = await ensureWorkspace(trx, workspace);
    const existing = await findProject(trx, ws.id, project);
    const projectRow =
      existing ??
      (await insertProject(trx, {
        workspaceId: ws.id,
        name: project,
        framework: 'static',
        environments: { production: { branch: 'main' } },
        pinpoints: {},
        auto: {},
      }));
    const form = await insertForm(trx, {
      projectId: projectRow.id,
      slug,
      name: options.name ?? null,
      endpointId: newEndpointId(),
      rateLimit: options.rateLimit ?? null,
    });
    return { workspace, project, projectId: projectRow.id, formId: form.id, endpointId: form.endpoint_id, slug };
  });
}
