import { Type, type Static } from 'typebox';
import { Closed, Ok, ProjectRef, ServiceConfigDocument, Timestamp } from './common.js';
import { FormInfo } from './forms.js';

export const ProjectSummary = Closed({
  workspace: Type.String(),
  project: Type.String(),
  framework: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ProjectSummary = Static<typeof ProjectSummary>;

/** `GET /api/cli/projects[?workspace=W]`: the projects the token can see. */
export const ListProjectsQuery = Closed({ workspace: Type.Optional(Type.String({ minLength: 1, maxLength: 63 })) });
export type ListProjectsQuery = Static<typeof ListProjectsQuery>;
export const ListProjectsResponse = Closed({ ok: Ok, projects: Type.Array(ProjectSummary) });
export type ListProjectsResponse = Static<typeof ListProjectsResponse>;

/**
 * `POST /api/cli/projects`: creates the project named by `config` (and its workspace, if
 * new: admin tokens only), then applies the rest of the configuration.
 */
export const CreateProjectRequest = Closed({ config: ServiceConfigDocument });
export type CreateProjectRequest = Static<typeof CreateProjectRequest>;
export const CreateProjectResponse = Closed({
  ok: Ok,
  project: ProjectSummary,
  workspaceCreated: Type.Boolean(),
  /** The project's state as a service.json document, `$schema` first. */
  config: ServiceConfigDocument,
  forms: Type.Array(FormInfo),
});
export type CreateProjectResponse = Static<typeof CreateProjectResponse>;

/** `GET /api/cli/projects/:workspace/:project/config`: keys in the schema's order. */
export const ProjectConfigResponse = Closed({ ok: Ok, config: ServiceConfigDocument });
export type ProjectConfigResponse = Static<typeof ProjectConfigResponse>;

/** `PUT /api/cli/projects/:workspace/:project/config`: what `svc push` sends. */
export const ApplyConfigRequest = Closed({
  config: ServiceConfigDocument,
  /** Delete forms missing from `config`, with their submissions. */
  prune: Type.Optional(Type.Boolean()),
  /** Work out and report the changes, then roll them back. */
  dryRun: Type.Optional(Type.Boolean()),
});
export type ApplyConfigRequest = Static<typeof ApplyConfigRequest>;

/** One change made by applying a configuration, e.g. `created forms.contact`. */
export const ConfigChange = Closed({
  action: Type.Union([Type.Literal('created'), Type.Literal('updated'), Type.Literal('deleted')]),
  /** What changed, as a path into service.json: `framework`, `forms.contact`, `domains.production`… */
  target: Type.String(),
  summary: Type.String(),
});
export type ConfigChange = Static<typeof ConfigChange>;

export const ApplyConfigResponse = Closed({
  ok: Ok,
  project: ProjectRef,
  dryRun: Type.Boolean(),
  /** False when the configuration was already in place: nothing was written. */
  changed: Type.Boolean(),
  changes: Type.Array(ConfigChange),
  /** Every form of the project after the change, in service.json order. */
  forms: Type.Array(FormInfo),
  /** Forms on the server that service.json does not list, kept with their submissions. */
  keptForms: Type.Array(FormInfo),
  /** Forms deleted by `prune`, with how many submissions went with them. */
  prunedForms: Type.Array(Closed({ slug: Type.String(), submissions: Type.Integer() })),
});
export type ApplyConfigResponse = Static<typeof ApplyConfigResponse>;
