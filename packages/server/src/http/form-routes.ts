import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorCodes, ServiceError, type SubmissionFile } from '@svc/protocol';
import type { FormDirectory } from '../forms/form-directory.js';
import { inexactNumberFields } from '../forms/exact-numbers.js';
import { checkFields, unstorableFieldErrors } from '../forms/field-checks.js';
import { honeypotName, separateInstructions, type PostInstructions } from '../forms/instructions.js';
import { fieldsFromJson } from '../forms/json-body.js';
import { maxIdempotencyKeyLength, type FormLimits } from '../forms/limits.js';
import { readMultipart, type StagedUpload } from '../forms/multipart-body.js';
import { backLink, errorLocation, successLocation, wantsHtml } from '../forms/person-answers.js';
import { errorPage, personPageHeaders, thankYouPage } from '../forms/person-pages.js';
import { prepareSubmission } from '../forms/prepare-submission.js';
import { storedIp, type FormIpMode } from '../forms/stored-ip.js';
import type { SubmissionWriter } from '../forms/submission-writer.js';
import type { UploadQuota } from '../forms/upload-quota.js';
import type { Metrics } from '../observability/metrics.js';
import { releaseContents } from '../operations/stored-contents.js';
import { rateLimitHeaders } from '../ratelimit/headers.js';
import type { RateLimitPolicy } from '../ratelimit/policy.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import { listProjectDomains } from '../store/queries/domains.js';
import type { ResolvedForm } from '../store/queries/forms.js';
import { findIdempotentSubmission } from '../store/queries/idempotency.js';
import type { Store } from '../store/store.js';
import type { PreparedSubmission, SubmissionOutcome } from '../store/submission-batch.js';
import { closeIfBodyUnread, logFailure, sendError, setRetryAfter } from './error-replies.js';
import { refuseUnstorableInput } from './storable-input.js';

export interface FormRouteServices {
  readonly store: Store;
  readonly directory: FormDirectory;
  readonly writer: SubmissionWriter;
  readonly rateLimiter: RateLimiter;
  readonly limits: FormLimits;
  readonly defaultPolicy: RateLimitPolicy;
  readonly metrics: Metrics;
  readonly idempotencyWindowMs: number;
  /** How much of the client's address is stored (the rate limiter uses all of it). */
  readonly formIp: FormIpMode;
  /** The per-project quota of stored uploads (docs/hosting.md, "Upload quota"). */
  readonly quota: UploadQuota;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The form addressed by `/api/f/:id`, once resolved. */
    form: ResolvedForm | null;
    /** Top-level fields of a JSON body holding numbers that would change on storage. */
    inexactNumbers: readonly string[] | null;
  }
}

type FormRequest = FastifyRequest<{ Params: { id: string } }>;

/** `POST /api/f/:id` (docs/form-endpoint.md), its CORS preflight, and 405 for other methods. */
export async function formRoutes(app: FastifyInstance, services: FormRouteServices): Promise<void> {
  const { limits } = services;
  app.decorateRequest('form', null);
  app.decorateRequest('inexactNumbers', null);
  // Before the form is looked up: an endpoint id (or query) with NUL is refused as such.
  app.addHook('onRequest', refuseUnstorableInput);
  // Only JSON and multipart are accepted; anything else is refused with 415.
  app.removeContentTypeParser('text/plain');
  // Fastify's own JSON parsing (prototype poisoning refused), with the text kept long
  // enough to find numbers that JSON.parse would change (forms/exact-numbers.ts).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: limits.jsonBodyBytes }, (request, text, done) => {
    void parseJson(request, text as string, (error, body) => {
      if (error) return done(error);
      request.inexactNumbers = inexactNumberFields(text as string);
      done(null, body);
    });
  });
  await app.register(multipart, {
    limits: { fields: limits.fields, files: limits.files, fileSize: limits.fileBytes, fieldSize: limits.jsonBodyBytes },
    throwFileSizeLimit: true,
  });
  await app.register(cors, {
    origin: '*',
    methods: ['POST'],
    allowedHeaders: ['content-type', 'idempotency-key', honeypotName],
    exposedHeaders: ['retry-after', 'ratelimit', 'ratelimit-policy', 'idempotent-replayed'],
    maxAge: 86_400,
    strictPreflight: false,
  });
  app.setErrorHandler((error, request, reply) =>
    wantsHtml(request.headers.accept) ? answerFailureToPerson(request as FormRequest, reply, error, services) : sendError(request, reply, error, false),
  );

  app.post('/:id', { bodyLimit: limits.jsonBodyBytes, onRequest: (request, reply) => admit(request as FormRequest, reply, services) }, async (request, reply) =>
    submit(request as FormRequest, reply, services),
  );
  app.route({
    method: ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'],
    url: '/:id',
    exposeHeadRoute: false,
    handler: (_request, reply) => {
      void reply.header('allow', 'POST, OPTIONS');
      throw new ServiceError('method_not_allowed', 'a form endpoint takes POST (and OPTIONS)');
    },
  });
}

/** Before the body is read: the form must exist and the client must be within its limit. */
async function admit(request: FormRequest, reply: FastifyReply, services: FormRouteServices): Promise<FastifyReply | undefined> {
  const form = await services.directory.resolve(request.params.id);
  if (!form) throw new ServiceError('not_found', 'no form has this endpoint id');
  request.form = form;
  const decision = await services.rateLimiter.consumeClient(form.rateLimit ?? services.defaultPolicy, { scope: form.id, address: request.clientAddress });
  void reply.headers(rateLimitHeaders(decision));
  if (!decision.allowed) {
    throw new ServiceError('rate_limited', `too many submissions from this address; retry in ${decision.resetSeconds} s`, { retryAfter: decision.resetSeconds });
  }
  return undefined;
}

async function submit(request: FormRequest, reply: FastifyReply, services: FormRouteServices): Promise<unknown> {
  const receivedAt = Date.now();
  const idempotencyKey = readIdempotencyKey(request);
  const body = await readBody(request, services);
  try {
    return await storeSubmission(request, reply, services, body, idempotencyKey, receivedAt);
  } finally {
    // Held files' memory goes back however the request ends: committed with it, or not at all.
    await Promise.all(body.uploads.filter((upload) => upload.staged.held).map((upload) => upload.staged.discard()));
  }
}

async function storeSubmission(request: FormRequest, reply: FastifyReply, services: FormRouteServices, body: ReadBody, idempotencyKey: string | null, receivedAt: number): Promise<unknown> {
  const form = request.form!;
  const { uploads } = body;
  const { fields, instructions } = separateInstructions(body.fields);

  const errors = { ...checkFields(fields, request.inexactNumbers ?? []), ...unstorableFieldErrors(body.fields) };
  if (Object.keys(errors).length > 0) {
    await Promise.all(uploads.map((upload) => upload.staged.discard()));
    const original = idempotencyKey === null ? null : await findOriginal(services, form.id, idempotencyKey);
    if (original !== null) return accepted(request, reply, services, instructions, original, true);
    throw new ServiceError('validation_failed', Object.entries(errors).map(([name, problem]) => `${name} ${problem}`).join('; '), { errors });
  }

  await services.quota.allow(form.projectId, uploads.reduce((bytes, upload) => bytes + upload.staged.size, 0)).catch(async (error: unknown) => {
    await Promise.all(uploads.map((upload) => upload.staged.discard()));
    throw error;
  });
  const files: SubmissionFile[] = uploads.map((upload) => ({
    field: upload.field,
    name: upload.name,
    size: upload.staged.size,
    contentType: upload.contentType,
    sha256: upload.staged.sha256,
  }));
  const state = request.headers[honeypotName] === undefined && !instructions.honeypot ? 'inbox' : 'spam';
  const userAgent = request.headers['user-agent'];
  const prepared = prepareSubmission({
    form,
    state,
    spamReason: state === 'spam' ? 'honeypot' : null,
    fields,
    files,
    clientIp: storedIp(request.clientAddress, services.formIp),
    userAgent: userAgent === undefined ? null : userAgent.slice(0, 512),
    idempotencyKey,
    receivedAt,
  });
  const heldFiles = uploads.flatMap((upload) => (upload.staged.held ? [upload.staged.held] : []));
  const outcome = await writeWithFiles(services, uploads, heldFiles.length === 0 ? prepared : { ...prepared, heldFiles });
  if (!outcome.replayed) services.metrics.submissions.inc({ state });
  return accepted(request, reply, services, instructions, outcome.id, outcome.replayed);
}

/**
 * Writes the submission with its files: held ones in its own transaction, the others made
 * durable first and released again when the submission is not stored (it failed, or its
 * idempotency key named an earlier one), so such a request leaves no bytes behind unless
 * something else holds them (docs/privacy.md).
 */
async function writeWithFiles(services: FormRouteServices, uploads: readonly StagedUpload[], submission: PreparedSubmission): Promise<SubmissionOutcome> {
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
    await Promise.all(uploads.map((upload) => upload.staged.discard()));
    await releaseContents(services.store, committed).catch(() => undefined);
    throw error;
  }
}

/**
 * The answer to a stored (or replayed) submission: the JSON of docs/form-endpoint.md, or
 * for a person's browser a 303 to the success URL or the thank-you page.
 */
async function accepted(request: FormRequest, reply: FastifyReply, services: FormRouteServices, instructions: PostInstructions, id: string, replayed: boolean): Promise<unknown> {
  if (replayed) void reply.header('idempotent-replayed', 'true');
  if (!wantsHtml(request.headers.accept)) return reply.code(200).send({ ok: true, id });
  const form = request.form!;
  const location = await successLocation({
    requested: instructions.redirect,
    origin: request.headers.origin,
    projectHostnames: async () => (await listProjectDomains(services.store.db, form.projectId)).map((domain) => domain.hostname),
    successUrl: form.successUrl,
  });
  if (location !== null) return reply.code(303).header('location', location).send();
  return reply.code(200).headers(personPageHeaders).send(thankYouPage(form.name ?? form.slug, backLink(request.headers.referer)));
}

/** A failure answered for a person: 303 to the form's error URL, or a page in words. */
function answerFailureToPerson(request: FormRequest, reply: FastifyReply, error: unknown, services: FormRouteServices): FastifyReply {
  const failure = logFailure(request, error);
  setRetryAfter(reply, failure);
  closeIfBodyUnread(request, reply);
  const errorUrl = request.form?.errorUrl ?? null;
  if (errorUrl !== null) {
    const fields = Object.keys(failure.details?.['errors'] ?? {});
    return reply.code(303).header('location', errorLocation(errorUrl, failure.code, fields[0])).send();
  }
  return reply.code(errorCodes[failure.code].status).headers(personPageHeaders).send(errorPage(failure, services.limits, backLink(request.headers.referer)));
}

interface ReadBody {
  readonly fields: Record<string, unknown>;
  readonly uploads: StagedUpload[];
}

async function readBody(request: FormRequest, services: FormRouteServices): Promise<ReadBody> {
  if (request.isMultipart()) return readMultipart(request, services.store.files, services.limits, { holdUpTo: services.limits.heldFileBytes });
  const type = request.headers['content-type'];
  if (type === undefined || !/^application\/json\s*(;|$)/i.test(type)) {
    throw new ServiceError('unsupported_media_type', 'send application/json or multipart/form-data');
  }
  return { fields: fieldsFromJson(request.body, services.limits), uploads: [] };
}

function readIdempotencyKey(request: FastifyRequest): string | null {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return null;
  if (Array.isArray(value) || value.length === 0 || value.length > maxIdempotencyKeyLength) {
    throw new ServiceError('invalid_idempotency_key', `idempotency-key must be 1 to ${maxIdempotencyKeyLength} characters`);
  }
  return value;
}

/** A key used within the window answers with its original submission, whatever the body. */
async function findOriginal(services: FormRouteServices, formId: string, key: string): Promise<string | null> {
  return findIdempotentSubmission(services.store.db, formId, key, Date.now() - services.idempotencyWindowMs);
}
