import { ServiceError } from '@svc/protocol';
import type { EnvironmentName } from '@svc/protocol/api';
import type { FailedAuthentications } from '../auth/failed-authentications.js';
import { parsePushEvent, type PushEvent } from '../builds/push-event.js';
import { readPushHeaders, type PushHeaders, type RequestHeaders } from '../builds/push-headers.js';
import { pushSignature } from '../builds/push-signature.js';
import { readSpooledBody, SpooledBodyTooLarge, SpoolFull, type SpooledBody, type SpoolOptions } from '../lib/spooled-body.js';
import { findDeployHookBySecretHash, findGitConnectionById, markDeployHookUsed } from '../store/queries/git-connections.js';
import { claimPushDelivery, releasePushDelivery } from '../store/queries/push-delivery-ids.js';
import { findProjectById } from '../store/queries/projects.js';
import type { BuildRow, GitConnectionRow } from '../store/schema.js';
import { branchOfEnvironment, enqueueBuild, environmentOfBranch } from './builds.js';
import type { OperationContext } from './context.js';
import { pushSecretContext } from '../builds/git-secrets.js';
import { hookSecretHash } from './git-connection.js';
import { recordInbound, type PushSummary } from './inbound-log.js';

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

/** A push delivery's id is remembered this long: a copy sent within it builds nothing (docs/hosting.md, "Replayed pushes"). */
export const pushReplayWindowMs = 24 * 60 * 60 * 1000;

/**
 * A push webhook's body (docs/hosting.md, "Limits of inbound webhooks"): at most 25 MB (the
 * most GitHub sends), its first 256 KiB held in memory and the rest spooled to disk while its
 * signature is computed, and at most 512 MiB spooled at once by all pushes being read.
 */
export const pushBodyLimits = { limitBytes: 25 * 1024 * 1024, memoryBytes: 256 * 1024, spoolBudgetBytes: 512 * 1024 * 1024 } as const;

/** What `POST /api/git/{id}` needs besides the operation context. */
export interface PushServices {
  readonly failures: FailedAuthentications;
  /** Where a large body waits while its signature is computed (lib/spooled-body.ts). */
  readonly spool: SpoolOptions;
}

export interface PushInput {
  readonly id: string;
  readonly headers: RequestHeaders;
  /** The client's address as `--trust-proxy` resolves it. */
  readonly address: string;
  /** The raw body, read only once every check that needs no body has passed. */
  readonly body: AsyncIterable<Uint8Array>;
}

const queued = (row: BuildRow): QueuedBuild => ({ id: row.id, environment: row.environment, branch: row.branch, commit: row.git_commit, status: 'queued' });

const invalidSignature = () => new ServiceError('invalid_signature', 'the push webhook has no signature or a wrong one');

/** Kept for a ping: it says the webhook reaches the service and is signed right. */
const pingReason = 'a ping: the webhook reaches the service and its signature is right';
const replayedReason = 'replayed delivery';

const connectionIdPattern = /^git_[0-9a-z]{26}$/;

/**
 * `POST /api/git/{id}` (docs/hosting.md, "Deploys from git"). Everything that needs no body
 * is decided before a byte of it is read: an unknown id, a request with no signature and a
 * wrong GitLab token are refused at once. A signed body is read with bounded memory into its
 * HMAC and verified before anything in it is parsed; only then is it parsed, once. Failed
 * signatures count per client address and push URL, and a right signature is accepted
 * whatever that count ("verify first"): a git host delivers every customer's pushes from
 * the same addresses, so a stranger's misconfigured webhook never stops another's pushes.
 * Each answer of a known id is kept in the inbound log with its verdict, refusals included.
 */
export async function receivePush(context: OperationContext, services: PushServices, input: PushInput): Promise<InboundAnswer> {
  const { failures } = services;
  const subject = `git:${connectionIdPattern.test(input.id) ? input.id : 'malformed'}`;
  const connection = subject === 'git:malformed' ? undefined : await findGitConnectionById(context.store.db, input.id);
  if (!connection) {
    // Names no project: counted, refused, and kept nowhere.
    const allowed = await failures.check(input.address, subject);
    if (!allowed.allowed) throw failures.refusal(allowed);
    await failures.record(input.address, subject);
    throw invalidSignature();
  }
  const headers = readPushHeaders(input.headers);
  const refuse = async (reason: string): Promise<never> => {
    const allowed = await failures.check(input.address, subject);
    await failures.record(input.address, subject);
    const limited = !allowed.allowed;
    await keepPush(context, connection, unverifiedSummary(headers), { verdict: 'refused', reason: limited ? `${reason}; too many failed signatures from this address` : reason });
    throw limited ? failures.refusal(allowed) : invalidSignature();
  };
  const secret = context.secrets.open(connection.push_secret_sealed, pushSecretContext(connection.project_id));
  const signature = pushSignature(input.headers, headers.host, secret);
  if (signature.kind === 'none') return refuse('no signature');
  if (signature.kind === 'token' && !signature.valid) return refuse('invalid signature');
  const body = await readBody(input.body, services.spool, signature.kind === 'hmac' ? (chunk) => signature.update(chunk) : () => undefined);
  try {
    if (signature.kind === 'hmac' && !signature.valid()) return await refuse('invalid signature');
    return await receiveVerified(context, connection, parsePushEvent(headers, await body.bytes()));
  } finally {
    await body.release();
  }
}

async function readBody(content: AsyncIterable<Uint8Array>, spool: SpoolOptions, observe: (chunk: Uint8Array) => void): Promise<SpooledBody> {
  try {
    return await readSpooledBody(content, spool, observe);
  } catch (error) {
    if (error instanceof SpooledBodyTooLarge) throw new ServiceError('payload_too_large', `a push webhook's body is at most ${spool.limitBytes} bytes`);
    if (error instanceof SpoolFull) throw new ServiceError('unavailable', 'too many large push webhooks are being read; retry shortly', { retryAfter: 30 });
    throw error;
  }
}

async function receiveVerified(context: OperationContext, connection: GitConnectionRow, event: PushEvent): Promise<InboundAnswer> {
  const ignore = async (summary: PushSummary, reason: string): Promise<InboundAnswer> => {
    await keepPush(context, connection, summary, { verdict: 'ignored', reason });
    return { status: 202, body: { ok: true, ignored: reason } };
  };
  const { intent } = event;
  if (intent.kind === 'ping') {
    await keepPush(context, connection, unverifiedSummary(event.headers), { verdict: 'ignored', reason: pingReason });
    return { status: 200, body: { ok: true } };
  }
  const summary: PushSummary = { host: event.headers.host, event: event.headers.event, ref: event.ref, commit: event.commit };
  if (intent.kind === 'ignored') return ignore(summary, intent.reason);
  const project = await findProjectById(context.store.db, connection.project_id);
  const environment = environmentOfBranch(project, intent.branch);
  if (environment === null) return ignore(summary, `the branch ${intent.branch} is no environment's branch (service.json's environments)`);
  const { deliveryId } = event.headers;
  const now = context.now();
  if (deliveryId !== null && !(await claimPushDelivery(context.store.db, connection.id, deliveryId, now, now - pushReplayWindowMs))) return ignore(summary, replayedReason);
  let row: BuildRow;
  try {
    row = await enqueueBuild(context, project, { environment, branch: intent.branch, commit: intent.commit, trigger: 'push', createdBy: 'git push' });
  } catch (error) {
    if (deliveryId !== null) await releasePushDelivery(context.store.db, connection.id, deliveryId);
    if (error instanceof ServiceError && error.code === 'too_many_builds') await keepPush(context, connection, summary, { environment, verdict: 'refused', reason: error.message });
    throw error;
  }
  await keepPush(context, connection, summary, { environment, verdict: 'accepted', buildId: row.id });
  return { status: 202, body: { ok: true, build: queued(row) } };
}

/** Who sent it and which event it says it is: all that is kept of a request not (yet) verified, and of a ping. */
const unverifiedSummary = (headers: PushHeaders): PushSummary => ({ host: headers.host, event: headers.event, ref: null, commit: null });

function keepPush(
  context: OperationContext,
  connection: GitConnectionRow,
  summary: PushSummary,
  verdict: { verdict: 'accepted' | 'ignored' | 'refused'; reason?: string; environment?: string; buildId?: string },
): Promise<void> {
  return recordInbound(context, {
    projectId: connection.project_id,
    source: { type: 'push', summary },
    environment: verdict.environment ?? null,
    verdict: verdict.verdict,
    reason: verdict.reason ?? null,
    buildId: verdict.buildId ?? null,
  });
}

/**
 * `POST /api/hooks/{secret}`: a build of the head of the hook's environment's branch, read
 * when the build starts; kept in the inbound log by the hook's id and name, never its URL.
 * The body is never read: a deploy hook carries nothing in it.
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
  let row: BuildRow;
  try {
    row = await enqueueBuild(context, project, { environment: hook.environment as EnvironmentName, branch, commit: null, trigger: 'hook', createdBy: hook.name });
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'too_many_builds') await recordInbound(context, { projectId: project.id, source, environment: hook.environment, verdict: 'refused', reason: error.message, buildId: null });
    throw error;
  }
  await recordInbound(context, { projectId: project.id, source, environment: hook.environment, verdict: 'accepted', reason: null, buildId: row.id });
  return { status: 202, body: { ok: true, build: queued(row) } };
}
