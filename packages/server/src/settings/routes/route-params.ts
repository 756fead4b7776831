import type { Principal } from '../../auth/principal.js';
import type { OperationContext } from '../../operations/context.js';
import { listForms } from '../../operations/forms.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import type { FastifyRequest } from 'fastify';
import type { ProjectPageBase } from '../views/overview-page.js';

export interface ProjectParams {
  workspace: string;
  project: string;
}

export type Body = Record<string, unknown> | undefined;

/** A text field of a posted form, trimmed; '' when absent. */
export function field(body: Body, name: string): string {
  const value = body?.[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** What every project page shows around its content: the frame and the project's forms. */
export async function projectPageBase(tools: SettingsRequestTools, request: FastifyRequest, params: ProjectParams): Promise<{ base: ProjectPageBase; principal: Principal; context: OperationContext }> {
  const { context } = tools.dependencies;
  const principal = tools.session(request).principal;
  const { forms } = await listForms(context, principal, params);
  return { base: { frame: tools.frame(request), workspace: params.workspace, project: params.project, forms }, principal, context };
}
