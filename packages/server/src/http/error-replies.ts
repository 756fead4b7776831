import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, codeForStatus, errorCodes, type ErrorCode } from '@svc/protocol';

/** Fastify's own failures, named by the registry. */
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_REQ_FILE_TOO_LARGE: 'payload_too_large',
  FST_FILES_LIMIT: 'payload_too_large',
  FST_FIELDS_LIMIT: 'payload_too_large',
  FST_PARTS_LIMIT: 'payload_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_body',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_body',
  FST_INVALID_JSON_FIELD_ERROR: 'invalid_body',
  FST_PROTO_VIOLATION: 'invalid_body',
  FST_MP_PREMATURE_CLOSE: 'invalid_body',
  FST_ERR_VALIDATION: 'invalid_body',
  FST_ERR_BAD_URL: 'not_found',
};

declare module 'fastify' {
  interface FastifyInstance {
    /** A dependency's failure as the 503 it is answered with, else null (health/dependency-health.ts). */
    asUnavailable(error: unknown): ServiceError | null;
  }
}

/**
 * Any failure as a ServiceError: a dependency's failure is `unavailable` (503), and what is
 * neither ours, nor a dependency's, nor a client error is `internal`.
 */
export function toServiceError(error: unknown, asUnavailable: (error: unknown) => ServiceError | null = () => null): ServiceError {
  if (error instanceof ServiceError) return error;
  const unavailable = asUnavailable(error);
  if (unavailable) return unavailable;
  const fastifyError = error as Partial<FastifyError> | null;
  const mapped = typeof fastifyError?.code === 'string' ? fastifyCodes[fastifyError.code] : undefined;
  if (mapped) return new ServiceError(mapped, undefined, undefined, { cause: error });
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ServiceError(codeForStatus(status), fastifyError?.message, undefined, { cause: error });
  }
  return new ServiceError('internal', undefined, undefined, { cause: error });
}

/** Codes whose message every caller gets: it says what the site's owner must do (docs/errors.md). */
const publicMessages = new Set<ErrorCode>(['quota_exceeded']);

/**
 * Sends the documented error body: `{"ok":false,"error":"<code>"}` (plus `retryAfter` for
 * 429 and 503, `errors` for 422, `message` for `quota_exceeded`). `verbose` adds a
 * `message` and `details` for the CLI API's callers; `withMessage` a `message` for anyone
 * (the form endpoint's: its callers are the developers of sites), the registry's words for
 * a failure on our side.
 */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown, verbose: boolean, withMessage = false): FastifyReply {
  const failure = logFailure(request, error);
  const status = errorCodes[failure.code].status;
  const body: Record<string, unknown> = { ok: false };
  if (failure.code === 'validation_failed' && failure.details?.['errors']) {
    body['errors'] = failure.details['errors'];
    if (verbose) body['error'] = failure.code;
  } else {
    body['error'] = failure.code;
  }
  const retryAfter = setRetryAfter(reply, failure);
  if (retryAfter !== null) body['retryAfter'] = retryAfter;
  closeIfBodyUnread(request, reply);
  if ((verbose && status < 500) || publicMessages.has(failure.code)) body['message'] = failure.message;
  else if (withMessage) body['message'] = status < 500 ? failure.message : errorCodes[failure.code].description;
  if (verbose && failure.details && failure.code !== 'validation_failed') body['details'] = failure.details;
  return reply.code(status).send(body);
}

/**
 * The failure as a ServiceError, logged: 5xx with its cause as an error, the rest at debug.
 * A dependency's failure is logged once when the dependency goes away, not per request.
 */
export function logFailure(request: FastifyRequest, error: unknown): ServiceError {
  const failure = toServiceError(error, (cause) => request.server.asUnavailable(cause));
  if (errorCodes[failure.code].status >= 500 && failure.code !== 'unavailable') request.log.error({ err: failure.cause ?? failure }, 'request failed');
  else request.log.debug({ code: failure.code }, failure.message);
  return failure;
}

/** How long a refused request's remaining body is still read (and dropped) before the connection closes. */
const lingerMs = 5_000;

/**
 * A request refused before its body was read to the end is answered with `connection:
 * close`: the bytes still coming would otherwise be read as the next request, or keep the
 * next request on this connection waiting behind them. The close lingers, as mature
 * servers' do: after the answer the server stops writing but reads and drops what the
 * client is still sending, for up to 5 s, so that a client busy sending its body reads the
 * answer instead of a reset connection.
 */
export function closeIfBodyUnread(request: FastifyRequest, reply: FastifyReply): void {
  if (request.raw.complete) return;
  reply.header('connection', 'close');
  lingerAfterAnswer(request.raw);
}

function lingerAfterAnswer(incoming: IncomingMessage): void {
  const socket = incoming.socket as Socket & { destroySoon?: () => void };
  // Node ends a `connection: close` answer with socket.destroySoon(), which closes both
  // directions at once; the server's sockets allow half-open, so end() closes only ours.
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    const close = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    if (incoming.complete) close();
    else {
      incoming.once('end', close);
      incoming.once('error', close);
      incoming.resume();
    }
  };
}

/** `retry-after` for a 429 or a 503; returns the seconds, or null for any other failure. */
export function setRetryAfter(reply: FastifyReply, failure: ServiceError): number | null {
  const seconds = failure.code === 'rate_limited' || failure.code === 'unavailable' ? failure.details?.['retryAfter'] : undefined;
  if (typeof seconds !== 'number') return null;
  reply.header('retry-after', String(seconds));
  return seconds;
}
