import { ServiceError } from '@svc/protocol';
import type { SubmissionInfo, SubmissionState } from '@svc/protocol/api';
import { eventPayload } from '../forms/prepare-submission.js';
import { newId } from '../lib/ids.js';
import { insertEvent } from '../store/queries/outbox.js';
import { findProjectSubmission, setSubmissionState, submissionEvents, submissionsMentioning, type ProjectSubmission } from '../store/queries/submission-changes.js';
import type { Db } from '../store/store.js';
import { recordAudit } from './audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { isoTime } from '../lib/iso-time.js';
import type { ProjectInput } from './project-config.js';
import { projectInScope, type ProjectInScope } from './scope.js';
import { eraseRequestsMentioning } from './request-erasure.js';
import { releaseContents } from '../contents/stored-contents.js';
import { eraseSubmissionRecord, fileHashes } from './submission-erasure.js';
import { toSubmissionInfo } from './submission-info.js';

export interface SubmissionInput extends ProjectInput {
  readonly id: string;
}

/** A submission with the slug of its form, as `svc submissions show` prints it. */
export type OwnedSubmission = SubmissionInfo & { form: string };

async function submissionInScope(db: Db, principal: Principal, input: SubmissionInput): Promise<ProjectInScope & ProjectSubmission> {
  const scope = await projectInScope(db, principal, input.workspace, input.project);
  const found = await findProjectSubmission(db, scope.project.id, input.id);
  if (!found) throw new ServiceError('not_found', `no submission "${input.id}" in project "${input.project}"`);
  return { ...scope, ...found };
}

function owned(found: ProjectSubmission, state: SubmissionState = found.submission.state): OwnedSubmission {
  const spamReason = state === found.submission.state ? found.submission.spam_reason : state === 'spam' ? 'manual' : null;
  return { ...toSubmissionInfo({ ...found.submission, state, spam_reason: spamReason }), form: found.form.slug };
}

/** `svc submissions show`: one submission of the project, with its fields and files. */
export async function getSubmission(context: OperationContext, principal: Principal, input: SubmissionInput): Promise<{ submission: OwnedSubmission }> {
  return { submission: owned(await submissionInScope(context.store.db, principal, input)) };
}

/**
 * `svc submissions move --to inbox|spam` (docs/form-endpoint.md): moving to the inbox emits
 * `form.submission.created`, moving to Spam `form.submission.spam`, in the same transaction;
 * moving to where it already is changes nothing and emits nothing.
 */
export async function moveSubmission(
  context: OperationContext,
  principal: Principal,
  input: SubmissionInput & { to: SubmissionState },
): Promise<{ submission: OwnedSubmission; changed: boolean }> {
  const result = await context.store.transaction(async (trx) => {
    const found = await submissionInScope(trx, principal, input);
    if (found.submission.state === input.to) return { found, changed: false };
    const now = context.now();
    await setSubmissionState(trx, found.submission.id, input.to);
    const eventId = newId('evt', now);
    const type = input.to === 'inbox' ? 'form.submission.created' : 'form.submission.spam';
    const form = { endpointId: found.form.endpointId, slug: found.form.slug, name: found.form.name, workspaceSlug: found.workspace.slug, projectName: found.project.name };
    const payload = eventPayload(
      { eventId, type, createdAt: isoTime(now), submittedAt: isoTime(found.submission.created_at), form, submissionId: found.submission.id, spamReason: input.to === 'spam' ? 'manual' : null },
      found.submission.fields,
      found.submission.files,
    );
    await insertEvent(trx, { id: eventId, projectId: found.project.id, type, payload, now });
    await recordAudit(trx, context, principal, { action: 'submission.moved', workspaceId: found.workspace.id, projectId: found.project.id, object: { type: 'submission', id: found.submission.id } });
    return { found, changed: true };
  });
  if (result.changed) context.store.signals.events.announce();
  return { submission: owned(result.found, input.to), changed: result.changed };
}

/**
 * `svc submissions delete` (docs/privacy.md): in one transaction the submission and
 * its idempotency key go, its events keep only a tombstone, their pending deliveries fail
 * without another attempt, kept receiver answers are dropped, and `form.submission.deleted`
 * is written. Then its files are removed unless something else holds the same contents
 * (another submission, a request, a workspace that uploaded them for its deploys).
 */
export async function deleteSubmission(context: OperationContext, principal: Principal, input: SubmissionInput): Promise<{ deleted: { id: string; form: string } }> {
  const deleted = await eraseOne(context, principal, input, 'submission.deleted');
  await context.store.scrubDeleted();
  return { deleted };
}

/**
 * `svc submissions erase --email ADDRESS` (docs/privacy.md): every submission of the project
 * with a field value that contains the address (case aside) is deleted as `delete` does,
 * and so is every Pinpoints request the address sent or that mentions it
 * (`svc requests delete`), one transaction each, so a failure part-way leaves each record
 * whole or gone.
 */
export async function eraseSubmissionsByEmail(
  context: OperationContext,
  principal: Principal,
  input: ProjectInput & { email: string },
): Promise<{ email: string; erased: number; submissions: { id: string; form: string }[]; erasedRequests: number; requests: { id: string }[] }> {
  const email = input.email.trim();
  if (email.length < 3 || email.length > 254 || !email.includes('@') || /\s/.test(email)) {
    throw new ServiceError('validation_failed', 'email must be an email address', { errors: { email: 'must be an email address' } });
  }
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const needle = email.toLowerCase();
  const matching = (await submissionsMentioning(context.store.db, project.id, email)).filter((row) => mentions(JSON.parse(row.fields), needle));
  const erased: { id: string; form: string }[] = [];
  for (const row of matching) {
    try {
      erased.push(await eraseOne(context, principal, { ...input, id: row.id }, 'submissions.erased'));
    } catch (error) {
      // Deleted meanwhile by someone else: nothing left to erase.
      if (!(error instanceof ServiceError && error.code === 'not_found')) throw error;
    }
  }
  const requests = await eraseRequestsMentioning(context, principal, { ...input, email });
  if (erased.length > 0 || requests.length > 0) await context.store.scrubDeleted();
  return { email, erased: erased.length, submissions: erased, erasedRequests: requests.length, requests };
}

/** Whether a field value (strings, lists, objects) contains `needle`, which is lower case. */
function mentions(value: unknown, needle: string): boolean {
  if (typeof value === 'string') return value.toLowerCase().includes(needle);
  if (Array.isArray(value)) return value.some((item) => mentions(item, needle));
  if (value !== null && typeof value === 'object') return Object.values(value).some((item) => mentions(item, needle));
  return false;
}

/** One submission erased in one transaction, with its audit entry (never the address searched for). */
async function eraseOne(context: OperationContext, principal: Principal, input: SubmissionInput, action: 'submission.deleted' | 'submissions.erased'): Promise<{ id: string; form: string }> {
  const found = await context.store.transaction(async (trx) => {
    const found = await submissionInScope(trx, principal, input);
    const scope = { workspaceSlug: found.workspace.slug, projectId: found.project.id, projectName: found.project.name, form: found.form };
    const events = await submissionEvents(trx, found.project.id, found.submission.id);
    await eraseSubmissionRecord(trx, scope, found.submission, events, context.now());
    await recordAudit(trx, context, principal, { action, workspaceId: found.workspace.id, projectId: found.project.id, object: { type: 'submission', id: found.submission.id } });
    return found;
  });
  context.store.signals.events.announce();
  await releaseContents(context.store, fileHashes(found.submission.files));
  return { id: found.submission.id, form: found.form.slug };
}
