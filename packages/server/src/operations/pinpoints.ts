import { ServiceError } from '@svc/protocol';
import type { PinpointsResponse } from '@svc/protocol/api';
import { widgetSettings, type WidgetSettings } from '../pinpoints/widget-settings.js';
import type { ProjectDomain } from '../pinpoints/page-origin.js';
import { listProjectDomains } from '../store/queries/domains.js';
import { ensureWidgetKey, findProjectByWidgetKey } from '../store/queries/projects.js';
import type { OperationContext, Principal } from './context.js';
import type { ProjectInput } from './project-config.js';
import type { WidgetProject } from './requests.js';
import { projectInScope } from './scope.js';

/** Widget keys are `pk_` and 24 base32 characters; anything else is not looked up. */
const widgetKeyPattern = /^pk_[0-9a-z]{24}$/;

/** The tag to paste into a page (docs/pinpoints.md). */
export function widgetSnippet(baseUrl: string, key: string): string {
  return `<script src="${baseUrl}/pinpoints.js" data-key="${key}" async></script>`;
}

/** `svc pinpoints snippet`: the project's widget key, its tag, and where the widget shows. */
export async function projectPinpoints(context: OperationContext, principal: Principal, input: ProjectInput): Promise<Omit<PinpointsResponse, 'ok'>> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const key = await ensureWidgetKey(context.store.db, project);
  const settings = widgetSettings(project.pinpoints);
  return {
    key,
    scriptUrl: `${context.urls.baseUrl}/pinpoints.js`,
    snippet: widgetSnippet(context.urls.baseUrl, key),
    enabled: { production: settings.production, staging: settings.staging, development: settings.development },
    redact: [...settings.redact],
    storeIp: settings.storeIp,
  };
}

/** What a public widget call needs to know of the project its key names. */
export interface WidgetTarget {
  readonly project: WidgetProject;
  readonly settings: WidgetSettings;
  readonly domains: readonly ProjectDomain[];
}

/** The project of a widget key; `not_found` for a key no project has. */
export async function widgetTarget(context: OperationContext, key: string): Promise<WidgetTarget> {
  const found = widgetKeyPattern.test(key) ? await findProjectByWidgetKey(context.store.db, key) : undefined;
  if (!found) throw new ServiceError('not_found', 'no project has this widget key');
  return {
    project: { workspaceSlug: found.workspaceSlug, projectId: found.project.id, projectName: found.project.name },
    settings: widgetSettings(found.project.pinpoints),
    domains: await listProjectDomains(context.store.db, found.project.id),
  };
}
