import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { durationText } from '../lib/duration-text.js';
import { privateTargetsHint, refusedLiteralReason } from '../net/address-policy.js';
import type { AttemptOutcome } from './attempt-decision.js';
import { guardedLookup } from './guarded-lookup.js';
import { readCappedBody } from '../lib/capped-body.js';
import { bodyText } from './response-body.js';

export interface SenderOptions {
  /** The whole attempt (connect, answer, body) must finish within this. */
  readonly timeoutMs: number;
  /** `--allow-private-targets`: no address checks at all. */
  readonly allowPrivateTargets: boolean;
  readonly responseBodyLimitBytes: number;
}

export interface OutgoingRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Sends webhook requests: POST, keep-alive connections shared by all deliveries, redirects
 * never followed (undici's `request` does not follow them), the SSRF guard on every new
 * connection. `send` never throws: every failure is an outcome with an error text.
 */
export class HttpSender {
  private readonly agent: Agent;

  constructor(
    private readonly options: SenderOptions,
    /** The wall clock attempts are stamped with (their duration is measured on the monotonic one). */
    private readonly now: () => number,
  ) {
    this.agent = new Agent({
      connect: options.allowPrivateTargets ? { timeout: options.timeoutMs } : { timeout: options.timeoutMs, lookup: guardedLookup() },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4_000,
    });
  }

  async send(outgoing: OutgoingRequest): Promise<AttemptOutcome> {
    const startedAt = this.now();
    const started = performance.now();
    const finish = (fields: Pick<AttemptOutcome, 'statusCode' | 'error' | 'responseBody' | 'retryAfter'>): AttemptOutcome => ({
      startedAt,
      durationMs: Math.round(performance.now() - started),
      ...fields,
    });

    let url: URL;
    try {
      url = new URL(outgoing.url);
    } catch {
      return finish({ statusCode: null, error: 'the webhook URL is not valid', responseBody: null, retryAfter: null });
    }
    const refused = this.options.allowPrivateTargets ? null : refusedLiteralReason(url);
    if (refused !== null) return finish({ statusCode: null, error: `refused: ${refused} (private targets are not allowed: ${privateTargetsHint})`, responseBody: null, retryAfter: null });

    // An EventEmitter as the abort signal (undici takes either): far cheaper per request than
    // an AbortController, whose EventTarget cost the worker 3 % of its time (bench/README.md).
    const deadline = new TimeoutSignal();
    const timer = setTimeout(() => deadline.abort(), this.options.timeoutMs);
    let statusCode: number | null = null;
    let retryAfter: string | null = null;
    try {
      const response = await request(url, {
        dispatcher: this.agent,
        method: 'POST',
        headers: outgoing.headers,
        body: outgoing.body,
        signal: deadline,
      });
      statusCode = response.statusCode;
      retryAfter = headerValue(response.headers['retry-after']);
      const body = await readCappedBody(response.body, this.options.responseBodyLimitBytes);
      const error = statusCode >= 300 && statusCode < 400 ? `answered ${statusCode}: redirects are not followed` : null;
      return finish({ statusCode, error, responseBody: bodyText(body), retryAfter });
    } catch (error) {
      const reason = deadline.aborted ? `timed out after ${durationText(this.options.timeoutMs)}` : describeSendError(error);
      // An answer whose status arrived in time is judged by its status even if its body did not.
      return finish({ statusCode, error: statusCode === null ? reason : `answered ${statusCode}; reading the body failed: ${reason}`, responseBody: null, retryAfter });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes idle connections; requests in flight are ended. */
  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

/** What undici needs of a signal: `aborted`, and an `abort` event. */
class TimeoutSignal extends EventEmitter {
  aborted = false;

  abort(): void {
    this.aborted = true;
    this.emit('abort');
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

const errorTexts: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (temporary DNS failure)',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  UND_ERR_HEADERS_TIMEOUT: 'timed out waiting for the answer',
  UND_ERR_BODY_TIMEOUT: 'timed out reading the answer',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  ERR_SVC_REFUSED_TARGET: '',
};

/** A short, safe text for a failed send: known codes by name, the refusal by its own message. */
export function describeSendError(error: unknown): string {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code === 'ERR_SVC_REFUSED_TARGET') return `${current.message} (private targets are not allowed: ${privateTargetsHint})`;
    if (code !== undefined && errorTexts[code]) return errorTexts[code];
    if (code?.startsWith('ERR_TLS') || code?.includes('CERT') || /certificate|SSL|TLS/i.test(current.message)) return `TLS failure: ${current.message}`;
  }
  return error instanceof Error ? error.message : 'the request failed';
}
