import { Type, type Static } from 'typebox';
import { Closed, NullableString, NullableTimestamp, Ok, ProjectItemParams, Timestamp } from './common.js';
import { EnvironmentName } from './deploys.js';

/** Deploys from git (docs/hosting.md, "Deploys from git"): the repository, deploy hooks, builds. */

/** `POST …/git`: the project's repository; a token for a private one, sent once and stored sealed. */
export const ConnectGitRequest = Closed({
  repo: Type.String({ minLength: 1, maxLength: 2048 }),
  token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
});
export type ConnectGitRequest = Static<typeof ConnectGitRequest>;

/** The push webhook, shown this once: the secret is never shown again (connecting again rotates it). */
export const ConnectGitResponse = Closed({ ok: Ok, git: Closed({ repo: Type.String(), pushUrl: Type.String(), pushSecret: Type.String() }) });
export type ConnectGitResponse = Static<typeof ConnectGitResponse>;

export const CreateHookRequest = Closed({ environment: EnvironmentName, name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) });
export type CreateHookRequest = Static<typeof CreateHookRequest>;

export const HookInfo = Closed({ id: Type.String(), name: Type.String(), environment: EnvironmentName, createdAt: Timestamp, lastUsedAt: NullableTimestamp });
export type HookInfo = Static<typeof HookInfo>;

/** The hook with its URL, shown this once. */
export const CreateHookResponse = Closed({ ok: Ok, hook: Closed({ id: Type.String(), name: Type.String(), environment: EnvironmentName, url: Type.String() }) });
export type CreateHookResponse = Static<typeof CreateHookResponse>;

export const ListHooksResponse = Closed({ ok: Ok, hooks: Type.Array(HookInfo) });
export type ListHooksResponse = Static<typeof ListHooksResponse>;

export const HookParams = ProjectItemParams;
export type HookParams = Static<typeof HookParams>;

export const RemoveHookResponse = Closed({ ok: Ok, removed: Type.Boolean() });
export type RemoveHookResponse = Static<typeof RemoveHookResponse>;

export const BuildState = Type.Union([Type.Literal('queued'), Type.Literal('building'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('canceled')]);
export type BuildState = Static<typeof BuildState>;

export const BuildInfo = Closed({
  id: Type.String(),
  environment: EnvironmentName,
  branch: Type.String(),
  /** Null while a deploy hook's build waits: the branch's head is read when it starts. */
  commit: NullableString,
  trigger: Type.Union([Type.Literal('push'), Type.Literal('hook')]),
  createdBy: Type.String(),
  status: BuildState,
  error: NullableString,
  deploy: NullableString,
  createdAt: Timestamp,
  startedAt: NullableTimestamp,
  finishedAt: NullableTimestamp,
});
export type BuildInfo = Static<typeof BuildInfo>;

export const ListBuildsQuery = Closed({ environment: Type.Optional(EnvironmentName), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) });
export type ListBuildsQuery = Static<typeof ListBuildsQuery>;

export const ListBuildsResponse = Closed({ ok: Ok, builds: Type.Array(BuildInfo) });
export type ListBuildsResponse = Static<typeof ListBuildsResponse>;

export const BuildResponse = Closed({ ok: Ok, build: BuildInfo });
export type BuildResponse = Static<typeof BuildResponse>;

/** `GET …/builds/:id/log?offset=N`: the kept log (its last 1 MiB) from `offset` on, for `--follow`. */
export const BuildLogQuery = Closed({ offset: Type.Optional(Type.Integer({ minimum: 0 })) });
export type BuildLogQuery = Static<typeof BuildLogQuery>;

export const BuildLogResponse = Closed({ ok: Ok, status: BuildState, log: Type.String(), offset: Type.Integer(), done: Type.Boolean() });
export type BuildLogResponse = Static<typeof BuildLogResponse>;
