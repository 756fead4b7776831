import { Type, type Static } from 'typebox';
import { Id, NullableTimestamp, Ok, ProjectName, Slug, Timestamp } from './common.js';
import { EnvironmentName } from './deploys.js';

/** Deploys from git (docs/hosting.md, "Deploys from git"): the repository, deploy hooks, builds. */

/** `POST …/git`: the project's repository; a token for a private one, sent once and stored sealed. */
export const ConnectGitRequest = Type.Object(
  {
    repo: Type.String({ minLength: 1, maxLength: 2048 }),
    token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  },
  { additionalProperties: false },
);
export type ConnectGitRequest = Static<typeof ConnectGitRequest>;

/** The push webhook, shown this once: the secret is never shown again (connecting again rotates it). */
export const ConnectGitResponse = Type.Object(
  { ok: Ok, git: Type.Object({ repo: Type.String(), pushUrl: Type.String(), pushSecret: Type.String() }, { additionalProperties: false }) },
  { additionalProperties: false },
);
export type ConnectGitResponse = Static<typeof ConnectGitResponse>;

export const CreateHookRequest = Type.Object(
  { environment: EnvironmentName, name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) },
  { additionalProperties: false },
);
export type CreateHookRequest = Static<typeof CreateHookRequest>;

export const HookInfo = Type.Object(
  { id: Type.String(), name: Type.String(), environment: EnvironmentName, createdAt: Timestamp, lastUsedAt: NullableTimestamp },
  { additionalProperties: false },
);
export type HookInfo = Static<typeof HookInfo>;

/** The hook with its URL, shown this once. */
export const CreateHookResponse = Type.Object(
  { ok: Ok, hook: Type.Object({ id: Type.String(), name: Type.String(), environment: EnvironmentName, url: Type.String() }, { additionalProperties: false }) },
  { additionalProperties: false },
);
export type CreateHookResponse = Static<typeof CreateHookResponse>;

export const ListHooksResponse = Type.Object({ ok: Ok, hooks: Type.Array(HookInfo) }, { additionalProperties: false });
export type ListHooksResponse = Static<typeof ListHooksResponse>;

export const HookParams = Type.Object({ workspace: Slug, project: ProjectName, id: Id });
export type HookParams = Static<typeof HookParams>;

export const RemoveHookResponse = Type.Object({ ok: Ok, removed: Type.Boolean() }, { additionalProperties: false });
export type RemoveHookResponse = Static<typeof RemoveHookResponse>;

export const BuildState = Type.Union([Type.Literal('queued'), Type.Literal('building'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('canceled')]);
export type BuildState = Static<typeof BuildState>;

export const BuildInfo = Type.Object(
  {
    id: Type.String(),
    environment: EnvironmentName,
    branch: Type.String(),
    /** Null while a deploy hook's build waits: the branch's head is read when it starts. */
    commit: Type.Union([Type.String(), Type.Null()]),
    trigger: Type.Union([Type.Literal('push'), Type.Literal('hook')]),
    createdBy: Type.String(),
    status: BuildState,
    error: Type.Union([Type.String(), Type.Null()]),
    deploy: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    startedAt: NullableTimestamp,
    finishedAt: NullableTimestamp,
  },
  { additionalProperties: false },
);
export type BuildInfo = Static<typeof BuildInfo>;

export const ListBuildsQuery = Type.Object(
  { environment: Type.Optional(EnvironmentName), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
  { additionalProperties: false },
);
export type ListBuildsQuery = Static<typeof ListBuildsQuery>;

export const ListBuildsResponse = Type.Object({ ok: Ok, builds: Type.Array(BuildInfo) }, { additionalProperties: false });
export type ListBuildsResponse = Static<typeof ListBuildsResponse>;

export const BuildResponse = Type.Object({ ok: Ok, build: BuildInfo }, { additionalProperties: false });
export type BuildResponse = Static<typeof BuildResponse>;

/** `GET …/builds/:id/log?offset=N`: the kept log (its last 1 MiB) from `offset` on, for `--follow`. */
export const BuildLogQuery = Type.Object({ offset: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: false });
export type BuildLogQuery = Static<typeof BuildLogQuery>;

export const BuildLogResponse = Type.Object(
  { ok: Ok, status: BuildState, log: Type.String(), offset: Type.Integer(), done: Type.Boolean() },
  { additionalProperties: false },
);
export type BuildLogResponse = Static<typeof BuildLogResponse>;

/**
 * The inbound log (docs/hosting.md, "When a push did not deploy"): one push webhook or deploy
 * hook call, with what the service did with it. Never its body, signature or secret.
 */
export const InboundVerdict = Type.Union([Type.Literal('accepted'), Type.Literal('ignored'), Type.Literal('refused')]);
export type InboundVerdict = Static<typeof InboundVerdict>;

export const InboundDeliveryInfo = Type.Object(
  {
    id: Type.String(),
    receivedAt: Timestamp,
    /** `push`: a push webhook (`POST /api/git/{id}`); `hook`: a deploy hook. */
    source: Type.Union([Type.Literal('push'), Type.Literal('hook')]),
    /** Whose signature header a push carried; null for a hook, or a push that carried none. */
    host: Type.Union([Type.Literal('github'), Type.Literal('gitea'), Type.Literal('gitlab'), Type.Null()]),
    /** The deploy hook called (its name when it was called). */
    hook: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }), Type.Null()]),
    /** The event header as sent (`push`, `ping`, `Push Hook`). */
    event: Type.Union([Type.String(), Type.Null()]),
    /** The pushed ref and commit, read only from a verified push. */
    ref: Type.Union([Type.String(), Type.Null()]),
    commit: Type.Union([Type.String(), Type.Null()]),
    environment: Type.Union([EnvironmentName, Type.Null()]),
    verdict: InboundVerdict,
    /** Why it was ignored or refused; null when accepted. */
    reason: Type.Union([Type.String(), Type.Null()]),
    /** The build it queued, when accepted. */
    build: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type InboundDeliveryInfo = Static<typeof InboundDeliveryInfo>;

/** One row of `svc builds list --all`: a build, or a delivery that built nothing. */
export const BuildsListEntry = Type.Union([
  Type.Object({ kind: Type.Literal('build'), build: BuildInfo }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('delivery'), delivery: InboundDeliveryInfo }, { additionalProperties: false }),
]);
export type BuildsListEntry = Static<typeof BuildsListEntry>;

/** `GET …/inbound`: builds and ignored or refused deliveries, newest first (`svc builds list --all`). */
export const ListBuildsAndDeliveriesResponse = Type.Object({ ok: Ok, entries: Type.Array(BuildsListEntry) }, { additionalProperties: false });
export type ListBuildsAndDeliveriesResponse = Static<typeof ListBuildsAndDeliveriesResponse>;
