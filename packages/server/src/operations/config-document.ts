import type { ServiceConfigDocument } from '@svc/protocol/api';
import type { DomainEntry } from '../store/queries/domains.js';
import type { FormRow, ProjectRow } from '../store/schema.js';
import { autoKeys, environmentNames, pinpointsKeys } from './config-plan.js';

export interface ProjectState {
  readonly schemaUrl: string;
  readonly workspaceSlug: string;
  readonly project: ProjectRow;
  readonly forms: readonly FormRow[];
  readonly domains: readonly DomainEntry[];
}

/**
 * A project's state as a service.json document, keys in the schema's order (`$schema`,
 * `workspace`, `project`, `framework`, `environments`, `forms`, `domains`, `pinpoints`,
 * `auto`) so that `svc pull` rewrites a file the same way every time. Sections that hold
 * nothing are left out.
 */
export function configDocument(state: ProjectState): ServiceConfigDocument {
  const document: ServiceConfigDocument = {
    $schema: state.schemaUrl,
    workspace: state.workspaceSlug,
    project: state.project.name,
    framework: state.project.framework,
    environments: ordered(parseObject(state.project.environments), environmentNames),
  };
  if (state.forms.length > 0) {
    document['forms'] = state.forms.map((form) => (form.name === null ? { slug: form.slug } : { slug: form.slug, name: form.name }));
  }
  const domains: Record<string, string[]> = {};
  for (const environment of environmentNames) {
    const hostnames = state.domains
      .filter((entry) => entry.environment === environment)
      .sort((a, b) => a.position - b.position)
      .map((entry) => entry.hostname);
    if (hostnames.length > 0) domains[environment] = hostnames;
  }
  if (Object.keys(domains).length > 0) document['domains'] = domains;
  const pinpoints = ordered(parseObject(state.project.pinpoints), pinpointsKeys);
  if (Object.keys(pinpoints).length > 0) document['pinpoints'] = pinpoints;
  const auto = ordered(parseObject(state.project.auto), autoKeys);
  if (Object.keys(auto).length > 0) document['auto'] = auto;
  return document;
}

/** A copy with `keys` first, in that order, then any others alphabetically. */
function ordered(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of keys) if (value[key] !== undefined) result[key] = value[key];
  for (const key of Object.keys(value).sort()) if (!(key in result) && value[key] !== undefined) result[key] = value[key];
  return result;
}

function parseObject(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
