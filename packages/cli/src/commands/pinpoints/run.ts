import { cliPaths } from '@svc/protocol';
import { PinpointsResponse } from '@svc/protocol/api';
import type { ContextOf } from '../../command.js';
import { callProject } from '../../server-call.js';
import type { pinpointsSnippet } from './commands.js';

/** `svc pinpoints snippet`: the tag on stdout alone, so `> snippet.html` keeps just it; the rest on stderr. */
export async function snippet(context: ContextOf<typeof pinpointsSnippet>): Promise<number> {
  return callProject(
    context,
    ({ api, ref }) => api.get(cliPaths.pinpoints(ref.workspace, ref.project), PinpointsResponse),
    (result) => result.snippet,
    (result) => `The widget is ${widgetPlaces(result.enabled)}. Add data-environment="staging" to the tag to say which environment a page is in.`,
  );
}

/**
 * `on in staging, development` or `off in every environment`: of the environments given
 * (those service.json defines), else of all three.
 */
export function widgetPlaces(enabled: PinpointsResponse['enabled'], defined?: readonly string[]): string {
  const environments = (['production', 'staging', 'development'] as const).filter((environment) => defined === undefined || defined.includes(environment));
  const on = environments.filter((environment) => enabled[environment]);
  if (on.length > 0) return `on in ${on.join(', ')}`;
  return environments.length === 1 ? `off in ${environments[0]}` : 'off in every environment';
}
