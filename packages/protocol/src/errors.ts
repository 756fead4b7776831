/**
 * The one registry of error codes. Every error that leaves the server (HTTP bodies) or the
 * CLI (`--json` output, exit codes) carries one of these codes; docs/errors.md lists them
 * and a test keeps the two in step.
 *
 * `status` is the HTTP status the server answers with; `exit` is the CLI exit code
 * (docs/cli.md: 1 the user can fix it, 2 usage, 3 network or server failure).
 */
export interface ErrorSpec {
  readonly status: number;
  readonly exit: 1 | 2 | 3;
  readonly description: string;
}

export const errorCodes = {
  // The form endpoint (docs/form-endpoint.md) and the HTTP surface in general.
  invalid_body: { status: 400, exit: 1, description: 'The body is malformed JSON, not a JSON object, or a malformed multipart body.' },
  invalid_idempotency_key: { status: 400, exit: 1, description: 'The idempotency-key header is empty or longer than 255 characters.' },
  invalid_cursor: { status: 400, exit: 1, description: 'The pagination cursor is malformed or belongs to another listing.' },
  unauthorized: { status: 401, exit: 1, description: 'The token is missing, unknown or revoked.' },
  invalid_signature: { status: 401, exit: 1, description: 'An inbound webhook (a git host\'s push) has no signature or a wrong one; nothing was queued.' },
  forbidden: { status: 403, exit: 1, description: 'The token is valid but may not perform this operation.' },
  pinpoints_disabled: { status: 403, exit: 1, description: 'The Pinpoints widget is switched off for this environment of the project.' },
  forbidden_origin: { status: 403, exit: 1, description: 'The request comes from a site that is not one of the project\'s domains (nor a local development host).' },
  not_found: { status: 404, exit: 1, description: 'No such resource, or it is outside what the token can see.' },
  method_not_allowed: { status: 405, exit: 1, description: 'The path exists but not with this method.' },
  request_timeout: { status: 408, exit: 1, description: 'The request\'s headers or body did not arrive in time; the connection is closed.' },
  conflict: { status: 409, exit: 1, description: 'The resource already exists or changed concurrently.' },
  last_owner: { status: 409, exit: 1, description: 'The member is the last owner of the workspace: make another member owner before demoting or removing them.' },
  payload_too_large: { status: 413, exit: 1, description: 'The body, a file, or the number of files or fields is over its limit.' },
  quota_exceeded: { status: 413, exit: 1, description: 'The project\'s stored uploads (form files, Pinpoints screenshots) are at its quota; nothing was stored.' },
  unsupported_media_type: { status: 415, exit: 1, description: 'The content type is not one the endpoint takes (the form endpoint: application/json, multipart/form-data or application/x-www-form-urlencoded).' },
  validation_failed: { status: 422, exit: 1, description: 'The input was understood but some fields are invalid.' },
  rate_limited: { status: 429, exit: 1, description: 'Too many requests; retry after the number of seconds given.' },
  too_many_builds: { status: 429, exit: 1, description: 'The workspace has as many builds running and queued as it may (svc serve --builds-per-workspace); nothing was queued: push again once one has ended.' },
  internal: { status: 500, exit: 3, description: 'An unexpected failure on the server; details are only in the server log.' },
  unavailable: { status: 503, exit: 3, description: 'The server or one of its backing services is not ready.' },

  // CLI-only conditions; `status` is what the condition would be over HTTP.
  usage: { status: 400, exit: 2, description: 'The command line is wrong: unknown command or option, missing or invalid argument.' },
  config_invalid: { status: 422, exit: 1, description: 'service.json is not valid; see the listed errors.' },
  file_not_found: { status: 404, exit: 1, description: 'A file named on the command line (or ./service.json) does not exist.' },
  file_unreadable: { status: 400, exit: 1, description: 'A file exists but cannot be read.' },
  file_exists: { status: 409, exit: 1, description: 'The file to write exists already; pass --force to overwrite it.' },
  not_logged_in: { status: 401, exit: 1, description: 'No credentials: run `svc login` or set SVC_TOKEN and SVC_API_URL.' },
  not_linked: { status: 400, exit: 1, description: 'No project given: run the command next to service.json or pass --workspace and --project.' },
  cancelled: { status: 400, exit: 1, description: 'The command was cancelled at a prompt; nothing was changed.' },
  network_error: { status: 503, exit: 3, description: 'The server could not be reached.' },
  server_error: { status: 502, exit: 3, description: 'The server answered with an unexpected failure or an answer the CLI does not understand.' },
  build_failed: { status: 400, exit: 1, description: '`npm run build` (svc deploy --build) failed; its output is above, and nothing was deployed.' },
  index_missing: { status: 422, exit: 1, description: 'The folder to deploy has no index.html at its root, so its address would answer 404; pass --allow-no-index (svc deploy) if that is meant.' },
  archive_invalid: { status: 422, exit: 1, description: 'svc restore: the backup archive is truncated, altered or not an svc backup (a checksum, the manifest or a member does not match); nothing was written.' },
  archive_too_new: { status: 422, exit: 1, description: 'svc restore: the backup was made by a newer svc (a newer archive format or migration level); restore it with that version or a later one. Nothing was written.' },
  key_mismatch: { status: 409, exit: 1, description: 'The backup\'s secrets are sealed with another encryption key than the one given: use the same SVC_ENCRYPTION_KEY (or encryption.key), or restore with --different-key and set those secrets again. Nothing was written.' },
  delivery_failed: { status: 502, exit: 1, description: 'The webhook receiver did not accept a test delivery (no 2xx answer in time); it is retried like any other.' },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof errorCodes;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorCodes, value);
}

/** A failure with a stable code; its message is safe to show to the caller. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly code: ErrorCode;
  /** Extra, caller-safe detail (for example per-field messages or retryAfter). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>, options?: ErrorOptions) {
    super(message ?? errorCodes[code].description, options);
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return errorCodes[this.code].status;
  }

  get exitCode(): 1 | 2 | 3 {
    return errorCodes[this.code].exit;
  }
}

/** Maps an HTTP status from the server to the code a client reports when the body has none. */
export function codeForStatus(status: number): ErrorCode {
  for (const [code, spec] of Object.entries(errorCodes) as [ErrorCode, ErrorSpec][]) {
    if (spec.status === status && code !== 'usage' && !code.startsWith('file_')) return code;
  }
  return status >= 500 ? 'server_error' : 'invalid_body';
}
