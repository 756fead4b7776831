import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, errorCodes, type ErrorCode } from '@svc/protocol';
import { sendError } from './error-replies.js';

/**
 * Requests refused before they reach a route still get a documented answer: a status from the
 * error registry and `{"ok":false,"error":"<code>"}`, never Node's or Fastify's own bodies
 * and never a silently closed connection.
 *
 * - What Node's HTTP parser cannot read (bad request line or header bytes, conflicting or
 *   invalid framing, malformed chunks, a request too slow to arrive): 400 `invalid_body`.
 *   Headers over Node's limit (16 KiB): 413 `payload_too_large`. Headers or a body slower
 *   than `--headers-timeout` / `--request-timeout`: 408 `request_timeout`.
 * - A path Fastify cannot decode (`%zz`) or a path parameter longer than any endpoint id:
 *   404 `not_found`.
 * - `CONNECT`: 405 `method_not_allowed`. An `Expect` other than `100-continue` is ignored
 *   (RFC 9110 allows it) rather than answered with an undocumented 417.
 */

/** Fastify's `clientErrorHandler`: errors of the HTTP parser, before any request exists. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode = error.code === 'HPE_HEADER_OVERFLOW' ? 'payload_too_large' : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : 'invalid_body';
  // The parser may fail on bytes pipelined after a request that is still being handled:
  // that request is answered first (answers keep the order of requests), then this one.
  // (A request whose own body failed to parse is incomplete: it is answered now.)
  const pending = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (pending && pending.req.complete && !pending.writableFinished && !pending.destroyed) {
    pending.once('finish', () => refuse(socket, code));
    pending.once('close', () => socket.destroy());
    return;
  }
  refuse(socket, code);
}

/** Fastify's `frameworkErrors`: a URL it cannot decode, a parameter over `maxParamLength`. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const unknownPath = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  void sendError(request, reply, unknownPath ? new ServiceError('not_found', 'no such path', undefined, { cause: error }) : error, false);
}

/** Node-level events Fastify leaves to Node's defaults (which close or answer undocumented). */
export function installProtocolGuards(server: Server): void {
  // With no listener Node destroys the socket without an answer.
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => refuse(socket, 'method_not_allowed'));
  // With no listener Node answers 417; the request is handled like any other instead.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => server.emit('request', request, response));
}

/** Writes the answer, then closes the connection once it is flushed: the parser cannot go on. */
function refuse(socket: Duplex, code: ErrorCode): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = errorCodes[code].status;
  const body = JSON.stringify({ ok: false, error: code });
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${statusText[status] ?? 'Error'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

const statusText: Readonly<Record<number, string>> = { 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 413: 'Payload Too Large' };
