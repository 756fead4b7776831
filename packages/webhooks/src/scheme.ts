// The parts of the scheme that do not depend on a crypto implementation: checking the
// inputs, the bytes that are signed, the header and the timestamp window. `node.ts` and
// `web.ts` only add HMAC-SHA256 and a constant-time comparison.
import { WebhookVerificationError } from './errors.js';
import { parseSignatureHeader, type SignatureHeaderValue } from './header.js';

/** The request body exactly as received: a string, a `Buffer` / `Uint8Array`, or an `ArrayBuffer`. */
export type RawBody = string | Uint8Array | ArrayBuffer;

export interface VerifyOptions {
  /** How far `t=` may be from `now`, in seconds, in either direction. Default 300 (5 minutes). */
  tolerance?: number;
  /** The current time in unix seconds. Default: the system clock. */
  now?: number;
}

export interface VerifyResult {
  /** The signed `t=` of the delivery, in unix seconds. */
  timestamp: number;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Unix seconds reach 1e11 in the year 5138; `Date.now()` milliseconds passed it in 1973. */
const LOOKS_LIKE_MILLISECONDS = 1e11;
const encoder = new TextEncoder();

export function currentTimestamp(): number {
  return Math.floor(Date.now() / 1000);
}

/** `<timestamp>.<raw body>`: the bytes the HMAC is computed over. */
export function signedContent(timestamp: number, body: Uint8Array): Uint8Array {
  const prefix = encoder.encode(`${timestamp}.`);
  const content = new Uint8Array(prefix.length + body.length);
  content.set(prefix);
  content.set(body, prefix.length);
  return content;
}

/** Checks the arguments of `sign()` / `signAsync()`. */
export function prepareSigning(secret: unknown, rawBody: unknown, timestamp: unknown) {
  const secrets = secretList(secret);
  const body = rawBytes(rawBody);
  if (body === undefined) throw new TypeError(`The body to sign must be a string or bytes, got ${describe(rawBody)}.`);
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError(`The timestamp must be a whole, non-negative number of unix seconds, got ${String(timestamp)}.`);
  }
  rejectMilliseconds(timestamp, 'timestamp');
  return { secrets, content: signedContent(timestamp, body) };
}

/** Checks the arguments of `verify()` / `verifyAsync()` and parses the header. */
export function prepareVerification(rawBody: unknown, header: unknown, secrets: unknown, options: VerifyOptions = {}) {
  const keys = secretList(secrets);
  const { tolerance = DEFAULT_TOLERANCE_SECONDS, now = currentTimestamp() } = options;
  if (typeof tolerance !== 'number' || Number.isNaN(tolerance) || tolerance < 0) {
    throw new TypeError(`options.tolerance must be a number of seconds >= 0, got ${String(tolerance)}.`);
  }
  if (typeof now !== 'number' || !Number.isFinite(now) || now < 0) {
    throw new TypeError(`options.now must be unix seconds, got ${String(now)}.`);
  }
  rejectMilliseconds(now, 'options.now');

  const body = rawBytes(rawBody);
  if (body === undefined) throw notRaw(rawBody);
  const { timestamp, signatures } = parseSignatureHeader(header as SignatureHeaderValue);
  return { secrets: keys, signatures, timestamp, content: signedContent(timestamp, body), tolerance, now };
}

/** The last step: the signature first (so a stale forgery is a mismatch), then the window. */
export function finishVerification(
  delivery: { timestamp: number; tolerance: number; now: number },
  matched: boolean,
): VerifyResult {
  const { timestamp, tolerance, now } = delivery;
  if (!matched) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      'No v1= signature matches the body for the given secret(s). Check that the secret is the whole ' +
        'whsec_... string of this webhook and that the body is passed exactly as received.',
    );
  }
  if (Math.abs(now - timestamp) > tolerance) {
    const direction = timestamp < now ? `${now - timestamp} s old` : `${timestamp - now} s in the future`;
    throw new WebhookVerificationError(
      'timestamp_out_of_range',
      `The signature timestamp is ${direction}, outside the ${tolerance} s tolerance. ` +
        'Either this is a replayed delivery or this machine\'s clock is wrong.',
    );
  }
  return { timestamp };
}

function secretList(secrets: unknown): readonly string[] {
  const list: unknown = typeof secrets === 'string' ? [secrets] : secrets;
  if (!Array.isArray(list) || list.length === 0) {
    throw new TypeError('Expected a webhook signing secret (whsec_...) or a non-empty array of them.');
  }
  const checked: string[] = [];
  for (const secret of list as unknown[]) {
    if (typeof secret !== 'string' || secret === '') {
      throw new TypeError('Every webhook signing secret must be a non-empty string.');
    }
    if (secret.trim() !== secret) {
      throw new TypeError('A webhook signing secret starts or ends with whitespace: trim the value you read.');
    }
    checked.push(secret);
  }
  return checked;
}

/** The body's bytes, or undefined when it is not a raw body (a parsed object, a number...). */
function rawBytes(body: unknown): Uint8Array | undefined {
  if (typeof body === 'string') return encoder.encode(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

function notRaw(body: unknown): WebhookVerificationError {
  return new WebhookVerificationError(
    'body_not_raw',
    `Expected the raw request body (a string, Buffer or Uint8Array), got ${describe(body)}. ` +
      'The signature covers the exact bytes that were sent, and parsed JSON cannot be turned back ' +
      'into them: read the body before any JSON parser runs. Express: express.raw({ type: ' +
      "'application/json' }); Fastify: a content-type parser with parseAs: 'buffer'; fetch-style " +
      'handlers (Next.js, Workers): await request.text().',
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

function rejectMilliseconds(value: number, name: string): void {
  if (value >= LOOKS_LIKE_MILLISECONDS) {
    throw new TypeError(`${name} must be in unix seconds; ${value} looks like milliseconds (use Math.floor(Date.now() / 1000)).`);
  }
}
