import { ServiceError } from '@svc/protocol';
import type { EnvironmentName } from '@svc/protocol/api';
import { summarizeUnverified, summarizeVerified, type PushSummary } from '../builds/push-summary.js';
import { readPush, verifyPushSignature } from '../builds/push-webhook.js';
import { findDeployHookBySecretHash, findGitConnectionById, markDeployHookUsed } from '../store/queries/git-connections.js';
import { findProjectById } from '../store/queries/projects.js';
import type { BuildRow } from '../store/schema.js';
import { branchOfEnvironment, enqueueBuild, environmentOfBranch } from './builds.js';
import type { OperationContext } from './context.js';
import { hookSecretHash, pushSecretContext } from './git-connection.js';
import { recordInbound } from './inbound-log.js';

/** What an inbound webhook is answered: 200 for a ping, else 202 with the build or why nothing was built. */
export type InboundAnswer =
  | { readonly status: 200; readonly body: { ok: true } }
  | { readonly status: 202; readonly body: { ok: true; build: QueuedBuild } | { ok: true; ignored: string } };

export interface QueuedBuild {
  id: string;
  environment: string;
  branch: string;
  commit: string | null;
  status: 'queued';
}

const queued = (row: BuildRow): QueuedBuild => ({ id: row.id, environment: row.environment, branch: row.branch, commit: row.git_commit, status: 'queued' });

const refused = () => new ServiceError('invalid_signature', 'the push webhook has no signature or a wrong one');

/** Kept for a ping: it says the webhook reaches the service and is signed right. */
const pingReason = 'a ping: the webhook reaches the service and its signature is right';

/**
 * `POST /api/git/{id}` (docs/hosting.md, "Deploys from git"): a push webhook, verified over
 * its raw body before anything in it is read; an unknown id is refused like a wrong
 * signature. A push to an environment's branch queues a build of exactly that commit.
 * Each answer of a known id is kept in the inbound log with its verdict ("When a push did
 * not deploy"); a call to an unknown id names no project, so it is only counted as a
 * failed authentication.
 */
export async function receivePush(context: OperationContext, input: { id: string; headers: Readonly<Record<string, string | string[] | undefined>>; body: Buffer }): Promise<InboundAnswer> {
  const connection = /^git_[0-9a-z]{26}$/.test(input.id) ? await findGitConnectionById(context.store.db, input.id) : undefined;
  // Verified even for an unknown id, with a throwaway secret: the answer takes as long either way.
  const secret = connection ? context.secrets.open(connection.push_secret_sealed, pushSecretContext(connection.project_id)) : 'unknown-connection';
  const verified = verifyPushSignature(input.headers, input.body, secret);
  if (!connection) throw refused();
  const projectId = connection.project_id;
  const keep = (summary: PushSummary, verdict: { environment: string | null; verdict: 'accepted' | 'ignored' | 'refused'; reason: string | null; buildId: string | null }) =>
    recordInbound(context, { projectId, source: { type: 'push', summary }, ...verdict });
  if (!verified) {
    const summary = summarizeUnverified(input.headers);
    await keep(summary, { environment: null, verdict: 'refused', reason: summary.host === null ? 'no signature' : 'invalid signature', buildId: null });
    throw refused();
  }
  const intent = readPush(input.headers, input.body);
  if (intent.kind === 'ping') {
    await keep(summarizeUnverified(input.headers), { environment: null, verdict: 'ignored', reason: pingReason, buildId: null });
    return { status: 200, body: { ok: true } };
  }
  if (intent.kind === 'ignored') {
    await keep(summarizeVerified(input.headers, input.body), { environment: null, verdict: 'ignored', reason: intent.reason, buildId: null });
    return { status: 202, body: { ok: true, ignored: intent.reason } };
  }
  const pushed: PushSummary = { ...summarizeUnverified(input.headers), ref: `refs/heads/${intent.branch}`, commit: intent.commit };
  const project = await findProjectById(context.store.db, projectId);
  const environment = environmentOfBranch(project, intent.branch);
  if (environment === null) {
    const reason = `the branch ${intent.branch} is no environment's branch (service.json's environments)`;
    await keep(pushed, { environment: null, verdict: 'ignored', reason, buildId: null });
    return { status: 202, body: { ok: true, ignored: reason } };
  }
  const row = await enqueueBuild(context, project, { environment, branch: intent.branch, commit: intent.commit, trigger: 'push', createdBy: 'git push' });
  await keep(pushed, { environment, verdict: 'accepted', reason: null, buildId: row.id });
  return { status: 202, body: { ok: true, build: queued(row) } };
}

/**
 * `POST /api/hooks/{secret}`: a build of the head of the hook's environment's branch, read
 * when the build starts; kept in the inbound log by the hook's id and name, never its URL.
 */
export async function receiveDeployHook(context: OperationContext, secret: string): Promise<InboundAnswer> {
  const hook = secret.length >= 20 && secret.length <= 100 ? await findDeployHookBySecretHash(context.store.db, hookSecretHash(secret)) : undefined;
  if (!hook) throw new ServiceError('not_found', 'no such deploy hook');
  const source = { type: 'hook' as const, hook: { id: hook.id, name: hook.name } };
  const project = await findProjectById(context.store.db, hook.project_id);
  const branch = branchOfEnvironment(project, hook.environment);
  if (branch === null) {
    const reason = `the project has no ${hook.environment} environment any more`;
    await recordInbound(context, { projectId: project.id, source, environment: hook.environment, verdict: 'ignored', reason, buildId: null });
    return { status: 202, body: { ok: true, ignored: reason } };
  }
  const now = context.now();
  await markDeployHookUsed(context.store.db, hook.id, now);
  const row = await enqueueBuild(context, project, { environment: hook.environment as EnvironmentName, branch, commit: null, trigger: 'hook', createdBy: hook.name });
  await recordInbound(context, { projectId: project.id, source, environment: hook.environment, verdict: 'accepted', reason: null, buildId: row.id });
  return { status: 202, body: { ok: true, build: queued(row) } };
}
