import { ServiceError, codeForStatus, errorCodes, isErrorCode, type ErrorCode } from '@svc/protocol';
import { ErrorBody, checkerFor } from '@svc/protocol/api';

/**
 * A failed answer of the CLI API as a ServiceError: 4xx keep the registry code the server
 * sent (exit 1 or 2), 5xx always exit 3 (`internal`, `unavailable` or `server_error`).
 */
export function failureFromAnswer(status: number, text: string, apiUrl: string, path?: string): ServiceError {
  const body = parseErrorBody(text);
  // Every answer of the CLI API, its own 404s included, says in words what is missing; a 404
  // without words came from outside it: the address is not the service's base.
  if (status === 404 && body?.message === undefined) return new ServiceError('not_found', notTheBase(apiUrl, `it answered 404 to ${path ?? 'the CLI API'}`));
  const sent = body && isErrorCode(body.error) ? body.error : undefined;
  if (status >= 500) {
    const code: ErrorCode = sent !== undefined && errorCodes[sent].exit === 3 ? sent : 'server_error';
    const reason = body?.message ?? (sent ?? `HTTP ${status}`);
    return new ServiceError(code, `the server at ${apiUrl} failed: ${reason}`);
  }
  const code = sent ?? codeForStatus(status);
  const details: Record<string, unknown> = { ...body?.details };
  if (body?.errors !== undefined) details['errors'] = body.errors;
  if (body?.retryAfter !== undefined) details['retryAfter'] = body.retryAfter;
  return new ServiceError(code, messageFor(code, body?.message, apiUrl), Object.keys(details).length > 0 ? details : undefined);
}

function messageFor(code: ErrorCode, message: string | undefined, apiUrl: string): string {
  const said = message ?? errorCodes[code].description;
  if (code === 'unauthorized') return `${apiUrl} refused the token: ${said}; run \`svc login\` or check SVC_TOKEN`;
  if (code === 'forbidden') return `${said}; ask an owner of the workspace or an admin`;
  return said;
}

function parseErrorBody(text: string): ErrorBody | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return checkerFor(ErrorBody).check(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** What to say when the address given (`--api`, SVC_API_URL) leads somewhere other than the CLI API. */
export function notTheBase(apiUrl: string, what: string): string {
  return `${apiUrl} is not the service's base address (${what}): give the address \`svc serve\` prints, such as http://127.0.0.1:8787, with no path (\`svc login --api URL\` or SVC_API_URL)`;
}

/** A request that never got an answer: the server is down, unknown or too slow (exit 3). */
export function unreachable(apiUrl: string, error: unknown): ServiceError {
  return new ServiceError('network_error', `cannot reach the server at ${apiUrl}: ${describeNetworkError(error, apiUrl)}`, undefined, { cause: error });
}

function describeNetworkError(error: unknown, apiUrl: string): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'it did not answer in time';
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused (is `svc serve` running there?)',
    ENOTFOUND: 'no such host',
    EAI_AGAIN: 'the host name could not be resolved',
    ECONNRESET: 'the connection was reset',
    ETIMEDOUT: 'the connection timed out',
    EHOSTUNREACH: 'the host is unreachable',
    UND_ERR_SOCKET: 'the connection was closed',
  };
  // TLS spoken to a server that answers in plain HTTP: `svc serve` speaks plain HTTP.
  if (apiUrl.startsWith('https:') && (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'EPROTO' || /wrong version number|packet length too long/i.test(String(cause?.message)))) {
    return `it answers plain HTTP, not HTTPS: use ${apiUrl.replace(/^https:/, 'http:')}, or put a TLS proxy in front of \`svc serve\` (docs/server.md#running-behind-a-proxy)`;
  }
  if (code !== undefined) return known[code] ?? code;
  // fetch refuses to follow a redirect (`redirect: 'error'`): the CLI API never redirects, a page does.
  if (cause?.message === 'unexpected redirect') return notTheBase(apiUrl, 'it answered with a redirect, as a web page does');
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
