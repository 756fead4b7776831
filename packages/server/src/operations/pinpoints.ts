import type { PinpointsResponse } from '@svc/protocol/api';
import { widgetSettings } from '../pinpoints/widget-settings.js';
import { widgetSnippet } from '../pinpoints/widget-snippet.js';
import { ensureWidgetKey } from '../store/queries/projects.js';
import type { OperationContext, Principal } from './context.js';
import type { ProjectInput } from './project-config.js';
import { projectInScope } from './scope.js';

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
