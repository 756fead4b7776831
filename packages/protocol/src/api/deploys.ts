import { Type, type Static } from 'typebox';
import { Closed, Id, NullableString, NullableTimestamp, Ok, ProjectItemParams, ProjectName, Slug, Timestamp } from './common.js';

/** Deploys and hosting (docs/hosting.md). */
export const EnvironmentName = Type.Union([Type.Literal('production'), Type.Literal('staging'), Type.Literal('development')]);
export type EnvironmentName = Static<typeof EnvironmentName>;

export const DeployState = Type.Union([Type.Literal('uploading'), Type.Literal('live'), Type.Literal('superseded'), Type.Literal('failed')]);

/** A deploy built by the service from git; null for one made by `svc deploy`. */
export const DeploySource = Closed({
  type: Type.Literal('git'),
  repo: Type.String(),
  branch: Type.String(),
  commit: NullableString,
  trigger: Type.Union([Type.Literal('push'), Type.Literal('hook')]),
});
export type DeploySource = Static<typeof DeploySource>;

export const DeployInfo = Closed({
  id: Type.String(),
  environment: EnvironmentName,
  state: DeployState,
  liveIn: Type.Array(EnvironmentName),
  branch: NullableString,
  commit: NullableString,
  files: Type.Integer(),
  bytes: Type.Integer(),
  url: NullableString,
  previewUrl: Type.String(),
  error: NullableString,
  source: Type.Union([DeploySource, Type.Null()]),
  createdBy: NullableString,
  createdAt: Timestamp,
  finishedAt: NullableTimestamp,
});
export type DeployInfo = Static<typeof DeployInfo>;

/** One file of a deploy as the CLI hashed it: a relative `/`-separated path. */
export const DeployFileEntry = Closed({ path: Type.String({ minLength: 1, maxLength: 1024 }), sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }), size: Type.Integer({ minimum: 0 }) });
export type DeployFileEntry = Static<typeof DeployFileEntry>;

/** `POST …/deploys`: the manifest; the answer says which contents to upload. */
export const StartDeployRequest = Closed({
  environment: EnvironmentName,
  branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  commit: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  files: Type.Array(DeployFileEntry, { minItems: 1 }),
});
export type StartDeployRequest = Static<typeof StartDeployRequest>;

export const StartDeployResponse = Closed({ ok: Ok, deploy: DeployInfo, missing: Type.Array(Type.String()) });
export type StartDeployResponse = Static<typeof StartDeployResponse>;

export const DeployParams = ProjectItemParams;
export type DeployParams = Static<typeof DeployParams>;

export const DeployFileParams = Type.Object({ workspace: Slug, project: ProjectName, id: Id, sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) });
export type DeployFileParams = Static<typeof DeployFileParams>;

/** `PUT …/deploys/:id/files/:sha256`: the file's bytes (`application/octet-stream`). */
export const UploadDeployFileResponse = Closed({ ok: Ok, sha256: Type.String(), size: Type.Integer() });
export type UploadDeployFileResponse = Static<typeof UploadDeployFileResponse>;

export const DeployResponse = Closed({ ok: Ok, deploy: DeployInfo });
export type DeployResponse = Static<typeof DeployResponse>;

export const ListDeploysQuery = Closed({ environment: Type.Optional(EnvironmentName), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) });
export type ListDeploysQuery = Static<typeof ListDeploysQuery>;

export const ListDeploysResponse = Closed({
  ok: Ok,
  deploys: Type.Array(DeployInfo),
  /** The deploy each environment serves. */
  live: Closed({ production: NullableString, staging: NullableString, development: NullableString }),
});
export type ListDeploysResponse = Static<typeof ListDeploysResponse>;

/** `POST …/deploys/:id/promote`. */
export const PromoteDeployRequest = Closed({ to: EnvironmentName });
export type PromoteDeployRequest = Static<typeof PromoteDeployRequest>;

/** `POST …/deploys/rollback`: back to `id`, or to the deploy before the live one. */
export const RollbackRequest = Closed({ environment: EnvironmentName, id: Type.Optional(Id) });
export type RollbackRequest = Static<typeof RollbackRequest>;

export const SwitchDeployResponse = Closed({ ok: Ok, deploy: DeployInfo, environment: EnvironmentName, previous: NullableString, changed: Type.Boolean() });
export type SwitchDeployResponse = Static<typeof SwitchDeployResponse>;
