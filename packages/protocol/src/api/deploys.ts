import { Type, type Static } from 'typebox';
import { Id, NullableTimestamp, Ok, ProjectName, Slug, Timestamp } from './common.js';

/** Deploys and hosting (docs/hosting.md). */
export const EnvironmentName = Type.Union([Type.Literal('production'), Type.Literal('staging'), Type.Literal('development')]);
export type EnvironmentName = Static<typeof EnvironmentName>;

export const DeployState = Type.Union([Type.Literal('uploading'), Type.Literal('live'), Type.Literal('superseded'), Type.Literal('failed')]);

/** A deploy built by the service from git; null for one made by `svc deploy`. */
export const DeploySource = Type.Object(
  {
    type: Type.Literal('git'),
    repo: Type.String(),
    branch: Type.String(),
    commit: Type.Union([Type.String(), Type.Null()]),
    trigger: Type.Union([Type.Literal('push'), Type.Literal('hook')]),
  },
  { additionalProperties: false },
);
export type DeploySource = Static<typeof DeploySource>;

export const DeployInfo = Type.Object(
  {
    id: Type.String(),
    environment: EnvironmentName,
    state: DeployState,
    liveIn: Type.Array(EnvironmentName),
    branch: Type.Union([Type.String(), Type.Null()]),
    commit: Type.Union([Type.String(), Type.Null()]),
    files: Type.Integer(),
    bytes: Type.Integer(),
    url: Type.Union([Type.String(), Type.Null()]),
    previewUrl: Type.String(),
    error: Type.Union([Type.String(), Type.Null()]),
    source: Type.Union([DeploySource, Type.Null()]),
    createdBy: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    finishedAt: NullableTimestamp,
  },
  { additionalProperties: false },
);
export type DeployInfo = Static<typeof DeployInfo>;

/** One file of a deploy as the CLI hashed it: a relative `/`-separated path. */
export const DeployFileEntry = Type.Object(
  { path: Type.String({ minLength: 1, maxLength: 1024 }), sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }), size: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
export type DeployFileEntry = Static<typeof DeployFileEntry>;

/** `POST …/deploys`: the manifest; the answer says which contents to upload. */
export const StartDeployRequest = Type.Object(
  {
    environment: EnvironmentName,
    branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    commit: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    files: Type.Array(DeployFileEntry, { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type StartDeployRequest = Static<typeof StartDeployRequest>;

export const StartDeployResponse = Type.Object(
  { ok: Ok, deploy: DeployInfo, missing: Type.Array(Type.String()) },
  { additionalProperties: false },
);
export type StartDeployResponse = Static<typeof StartDeployResponse>;

export const DeployParams = Type.Object({ workspace: Slug, project: ProjectName, id: Id });
export type DeployParams = Static<typeof DeployParams>;

export const DeployFileParams = Type.Object({ workspace: Slug, project: ProjectName, id: Id, sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) });
export type DeployFileParams = Static<typeof DeployFileParams>;

/** `PUT …/deploys/:id/files/:sha256`: the file's bytes (`application/octet-stream`). */
export const UploadDeployFileResponse = Type.Object({ ok: Ok, sha256: Type.String(), size: Type.Integer() }, { additionalProperties: false });
export type UploadDeployFileResponse = Static<typeof UploadDeployFileResponse>;

export const DeployResponse = Type.Object({ ok: Ok, deploy: DeployInfo }, { additionalProperties: false });
export type DeployResponse = Static<typeof DeployResponse>;

export const ListDeploysQuery = Type.Object(
  { environment: Type.Optional(EnvironmentName), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
  { additionalProperties: false },
);
export type ListDeploysQuery = Static<typeof ListDeploysQuery>;

export const ListDeploysResponse = Type.Object(
  {
    ok: Ok,
    deploys: Type.Array(DeployInfo),
    /** The deploy each environment serves. */
    live: Type.Object({ production: Type.Union([Type.String(), Type.Null()]), staging: Type.Union([Type.String(), Type.Null()]), development: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type ListDeploysResponse = Static<typeof ListDeploysResponse>;

/** `POST …/deploys/:id/promote`. */
export const PromoteDeployRequest = Type.Object({ to: EnvironmentName }, { additionalProperties: false });
export type PromoteDeployRequest = Static<typeof PromoteDeployRequest>;

/** `POST …/deploys/rollback`: back to `id`, or to the deploy before the live one. */
export const RollbackRequest = Type.Object({ environment: EnvironmentName, id: Type.Optional(Id) }, { additionalProperties: false });
export type RollbackRequest = Static<typeof RollbackRequest>;

export const SwitchDeployResponse = Type.Object(
  { ok: Ok, deploy: DeployInfo, environment: EnvironmentName, previous: Type.Union([Type.String(), Type.Null()]), changed: Type.Boolean() },
  { additionalProperties: false },
);
export type SwitchDeployResponse = Static<typeof SwitchDeployResponse>;
