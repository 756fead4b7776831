import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorCodes, ServiceError } from '@svc/protocol';
import { acceptSubmission, type SubmissionServices } from '../forms/accept-submission.js';
import { admitSubmission, type AdmissionServices } from '../forms/admit-submission.js';
import { inexactNumberFields } from '../forms/exact-numbers.js';
import { honeypotName } from '../forms/instructions.js';
import { fieldsFromJson } from '../forms/json-body.js';
import { maxIdempotencyKeyLength, type FormLimits } from '../forms/limits.js';
import { readMultipart, type StagedUpload } from '../forms/multipart-body.js';
import { backLink, errorLocation, wantsHtml } from '../forms/person-answers.js';
import { errorPage, personPageHeaders, thankYouPage } from '../forms/person-pages.js';
import { rateLimitHeaders } from '../ratelimit/headers.js';
import type { ResolvedForm } from '../store/queries/forms.js';
import type { Store } from '../store/store.js';
import { closeIfBodyUnread, logFailure, sendError, setRetryAfter } from './error-replies.js';
import { refuseUnstorableInput } from './storable-input.js';

export interface FormRouteServices extends AdmissionServices {
  readonly submissions: SubmissionServices;
  readonly limits: FormLimits;
  /** Where multipart files are staged. */
  readonly files: Store['files'];
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
  const admission = await admitSubmission(services, request.params.id, request.clientAddress);
  request.form = admission.form;
  void reply.headers(rateLimitHeaders(admission.limit));
  if (admission.refusal) throw admission.refusal;
  return undefined;
}

async function submit(request: FormRequest, reply: FastifyReply, services: FormRouteServices): Promise<unknown> {
  const idempotencyKey = readIdempotencyKey(request);
  const body = await readBody(request, services);
  const person = wantsHtml(request.headers.accept);
  const userAgent = request.headers['user-agent'];
  const accepted = await acceptSubmission(services.submissions, {
    form: request.form!,
    fields: body.fields,
    uploads: body.uploads,
    inexactNumbers: request.inexactNumbers ?? [],
    idempotencyKey,
    client: { address: request.clientAddress, userAgent: userAgent ?? null, honeypotHeader: request.headers[honeypotName] !== undefined },
    person: person ? { origin: request.headers.origin } : null,
  });
  if (accepted.replayed) void reply.header('idempotent-replayed', 'true');
  // The JSON of docs/form-endpoint.md, or for a person's browser a 303 to the success URL or the thank-you page.
  if (!person) return reply.code(200).send({ ok: true, id: accepted.id });
  if (accepted.redirect !== null) return reply.code(303).header('location', accepted.redirect).send();
  const form = request.form!;
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
  if (request.isMultipart()) return readMultipart(request, services.files, services.limits, { holdUpTo: services.limits.heldFileBytes });
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
