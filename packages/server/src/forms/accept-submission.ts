import { ServiceError, type SubmissionFile } from '@svc/protocol';
import type { Metrics } from '../observability/metrics.js';
import { releaseContents } from '../deploys/stored-contents.js';
import { listProjectDomains } from '../store/queries/domains.js';
import type { ResolvedForm } from '../store/queries/forms.js';
import { findIdempotentSubmission } from '../store/queries/idempotency.js';
import type { Store } from '../store/store.js';
import type { PreparedSubmission, SubmissionOutcome } from '../store/submission-batch.js';
import { checkFields, unstorableFieldErrors } from './field-checks.js';
import { separateInstructions, type PostInstructions } from './instructions.js';
import { separateSolutions } from './spam/captcha-check.js';
import type { StagedUpload } from './multipart-body.js';
import { successLocation } from './person-answers.js';
import { prepareSubmission } from './prepare-submission.js';
import { storedIp, type FormIpMode } from './stored-ip.js';
import { classifySubmission, submissionChecks, type SubmissionCheck, type SubmissionClient } from './submission-checks.js';
import type { SubmissionWriter } from './submission-writer.js';
import type { UploadQuota } from './upload-quota.js';

/** What accepting a submission uses: built once at start (server.ts). */
export interface SubmissionServices {
  readonly store: Store;
  readonly writer: SubmissionWriter;
  readonly metrics: Metrics;
  readonly idempotencyWindowMs: number;
  /** How much of the client's address is stored (the rate limiter uses all of it). */
  readonly formIp: FormIpMode;
  /** The per-project quota of stored uploads (docs/hosting.md, "Upload quota"). */
  readonly quota: UploadQuota;
  /** The checks every valid submission goes through, in order (forms/submission-checks.ts). */
  readonly checks?: readonly SubmissionCheck[];
  readonly now: () => number;
}

/** A post to an admitted form, its body read (docs/form-endpoint.md). */
export interface PostedSubmission {
  readonly form: ResolvedForm;
  /** Every field posted, instructions (`_…`) and the honeypot field included. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** Files staged from a multipart body; accepting the submission owns them from here. */
  readonly uploads: readonly StagedUpload[];
  /** Top-level fields of a JSON body holding numbers that would change on storage. */
  readonly inexactNumbers: readonly string[];
  readonly idempotencyKey: string | null;
  readonly client: SubmissionClient;
  /** For a person's browser (a page rather than JSON): the request's `Origin`; null for a program. */
  readonly person: { readonly origin: string | undefined } | null;
}

/** A stored (or replayed) submission, for the endpoint to answer. */
export interface AcceptedSubmission {
  readonly id: string;
  /** The idempotency key named an earlier submission, which this answers with. */
  readonly replayed: boolean;
  /** For a person: where the browser goes next; null for the thank-you page (and for a program). */
  readonly redirect: string | null;
}

/**
 * The form endpoint's use case, after the form was admitted and the body read: a repeat of
 * an idempotency key answers with the original; otherwise check the fields, keep within the
 * upload quota, run the submission checks (spam), store the submission with its
 * files and event, and say where a person goes next. Refusals are thrown as ServiceErrors.
 * The staged files are committed with the submission or released, however it ends.
 */
export async function acceptSubmission(services: SubmissionServices, posted: PostedSubmission): Promise<AcceptedSubmission> {
  try {
    return await accept(services, posted, services.now());
  } finally {
    // Held files' memory goes back however the request ends: committed with it, or not at all.
    await Promise.all(posted.uploads.filter((upload) => upload.staged.held).map((upload) => upload.staged.discard()));
  }
}

async function accept(services: SubmissionServices, posted: PostedSubmission, receivedAt: number): Promise<AcceptedSubmission> {
  const { form, uploads, idempotencyKey, client } = posted;
  const { fields: postedFields, instructions } = separateInstructions(posted.fields);
  // Captcha solutions are instructions too: checked, never stored (docs/form-endpoint.md).
  const { fields, solutions } = separateSolutions(postedFields);

  // A repeat of an idempotency key answers with the original whatever it carries now: before
  // the checks, which would refuse it (its fields, or a captcha solution already spent).
  const original = idempotencyKey === null ? null : await findOriginal(services, form.id, idempotencyKey, receivedAt);
  if (original !== null) {
    await discardAll(uploads);
    return answer(services, posted, instructions, original, true);
  }
  const errors = { ...checkFields(fields, posted.inexactNumbers), ...unstorableFieldErrors(posted.fields) };
  if (Object.keys(errors).length > 0) {
    await discardAll(uploads);
    throw new ServiceError('validation_failed', Object.entries(errors).map(([name, problem]) => `${name} ${problem}`).join('; '), { errors });
  }

  // The quota first: a post refused for it keeps its captcha solution unspent.
  await discardingOnFailure(uploads, () => services.quota.allow(form.projectId, uploads.reduce((bytes, upload) => bytes + upload.staged.size, 0)));
  const { state, spamReason } = await discardingOnFailure(uploads, () => classifySubmission({ form, fields, instructions, solutions, client }, services.checks ?? submissionChecks));
  const files: SubmissionFile[] = uploads.map((upload) => ({
    field: upload.field,
    name: upload.name,
    size: upload.staged.size,
    contentType: upload.contentType,
    sha256: upload.staged.sha256,
  }));
  const prepared = prepareSubmission({
    form,
    state,
    spamReason,
    fields,
    files,
    clientIp: storedIp(client.address, services.formIp),
    userAgent: client.userAgent === null ? null : client.userAgent.slice(0, 512),
    idempotencyKey,
    receivedAt,
  });
  const heldFiles = uploads.flatMap((upload) => (upload.staged.held ? [upload.staged.held] : []));
  const outcome = await writeWithFiles(services, uploads, heldFiles.length === 0 ? prepared : { ...prepared, heldFiles });
  if (!outcome.replayed) services.metrics.submissions.inc({ state });
  return answer(services, posted, instructions, outcome.id, outcome.replayed);
}

/**
 * Writes the submission with its files: held ones in its own transaction, the others made
 * durable first and released again when the submission is not stored (it failed, or its
 * idempotency key named an earlier one), so such a request leaves no bytes behind unless
 * something else holds them (docs/privacy.md).
 */
async function writeWithFiles(services: SubmissionServices, uploads: readonly StagedUpload[], submission: PreparedSubmission): Promise<SubmissionOutcome> {
  const committed: string[] = [];
  try {
    for (const upload of uploads) {
      if (upload.staged.held) continue;
      await upload.staged.commit();
      committed.push(upload.staged.sha256);
    }
    const outcome = await services.writer.write(submission);
    if (outcome.replayed) await releaseContents(services.store, committed);
    return outcome;
  } catch (error) {
    await discardAll(uploads);
    await releaseContents(services.store, committed).catch(() => undefined);
    throw error;
  }
}

/** Where a person goes after a stored (or replayed) submission: a 303's location, or null for the thank-you page. */
async function answer(services: SubmissionServices, posted: PostedSubmission, instructions: PostInstructions, id: string, replayed: boolean): Promise<AcceptedSubmission> {
  if (posted.person === null) return { id, replayed, redirect: null };
  const { form } = posted;
  const redirect = await successLocation({
    requested: instructions.redirect,
    origin: posted.person.origin,
    projectHostnames: async () => (await listProjectDomains(services.store.db, form.projectId)).map((domain) => domain.hostname),
    successUrl: form.successUrl,
  });
  return { id, replayed, redirect };
}

/** A key used within the window answers with its original submission, whatever the body. */
async function findOriginal(services: SubmissionServices, formId: string, key: string, now: number): Promise<string | null> {
  return findIdempotentSubmission(services.store.db, formId, key, now - services.idempotencyWindowMs);
}

async function discardingOnFailure<T>(uploads: readonly StagedUpload[], step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await discardAll(uploads);
    throw error;
  }
}

async function discardAll(uploads: readonly StagedUpload[]): Promise<void> {
  await Promise.all(uploads.map((upload) => upload.staged.discard()));
}
