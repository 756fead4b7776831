import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { readCappedBody } from '../../lib/capped-body.js';

/** A provider's siteverify answer must come within this (docs/form-endpoint.md). */
export const siteverifyTimeoutMs = 5_000;

/** At most this much of a siteverify answer is read. */
const maxAnswerBytes = 64 * 1024;

/** passed: the provider vouched for the token; failed: it refused it; unverified: no usable answer. */
export type SiteverifyOutcome = 'passed' | 'failed' | 'unverified';

export interface SiteverifyRequest {
  /** Turnstile's or hCaptcha's siteverify address (`--turnstile-verify-url`, `--hcaptcha-verify-url`). */
  readonly url: string;
  readonly secret: string;
  readonly token: string;
  readonly timeoutMs?: number;
}

/** Error codes that mean our side is wrong (the secret), not the visitor: no verdict on them. */
const ourFaults = new Set(['missing-input-secret', 'invalid-input-secret', 'internal-error', 'sitekey-secret-mismatch']);

/**
 * Checks a Turnstile or hCaptcha token with the provider's siteverify API: both take the
 * same form-encoded `secret` and `response` (and an optional `remoteip`, which we do not
 * send: docs/form-endpoint.md) and answer `{"success":bool,
 * "error-codes":[…]}`. A provider that cannot be reached in time, answers other than 200,
 * or blames the secret gives no verdict: the submission is then kept in Spam, not lost.
 * The secret goes only in the request body; it is never logged.
 */
export async function siteverify(request: SiteverifyRequest): Promise<SiteverifyOutcome> {
  const body = new URLSearchParams({ secret: request.secret, response: request.token });
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(request.timeoutMs ?? siteverifyTimeoutMs),
    });
    const text = await readBounded(response);
    if (response.status !== 200 || text === null) return 'unverified';
    const answer = JSON.parse(text) as unknown;
    if (typeof answer !== 'object' || answer === null || typeof (answer as { success?: unknown }).success !== 'boolean') return 'unverified';
    const { success, 'error-codes': codes } = answer as { success: boolean; 'error-codes'?: unknown };
    if (success) return 'passed';
    return Array.isArray(codes) && codes.some((code) => typeof code === 'string' && ourFaults.has(code)) ? 'unverified' : 'failed';
  } catch {
    return 'unverified';
  }
}

/** The answer as text, or null when it is longer than we read. */
async function readBounded(response: Response): Promise<string | null> {
  if (!response.body) return '';
  // One byte past the bound tells an answer that is too long from one that just fits.
  const bytes = await readCappedBody(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), maxAnswerBytes + 1);
  return bytes.length > maxAnswerBytes ? null : bytes.toString('utf8');
}
