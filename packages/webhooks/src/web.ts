// The async API, on WebCrypto (`globalThis.crypto.subtle`): Cloudflare Workers, Deno, Bun,
// browsers, Vercel Edge and Node.js. Imports nothing from Node.js.
import { formatSignatureHeader, type SignatureHeaderValue } from './header.js';
import {
  currentTimestamp,
  finishVerification,
  prepareSigning,
  prepareVerification,
  type RawBody,
  type VerifyOptions,
  type VerifyResult,
} from './scheme.js';

export { WEBHOOK_VERIFICATION_ERROR_CODES, WebhookVerificationError, type WebhookVerificationErrorCode } from './errors.js';
export {
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TEST_HEADER,
  parseSignatureHeader,
  type SignatureHeader,
  type SignatureHeaderValue,
} from './header.js';
export { DEFAULT_TOLERANCE_SECONDS, type RawBody, type VerifyOptions, type VerifyResult } from './scheme.js';

const encoder = new TextEncoder();

/** Like `sign()`, on WebCrypto. */
export async function signAsync(
  secret: string | readonly string[],
  rawBody: RawBody,
  timestamp: number = currentTimestamp(),
): Promise<string> {
  const { secrets, content } = prepareSigning(secret, rawBody, timestamp);
  const signatures = await Promise.all(secrets.map((key) => hmacSha256Hex(key, content)));
  return formatSignatureHeader(timestamp, signatures);
}

/** Like `verify()`, on WebCrypto: resolves to `{ timestamp }` or rejects with a `WebhookVerificationError`. */
export async function verifyAsync(
  rawBody: RawBody,
  header: SignatureHeaderValue,
  secrets: string | readonly string[],
  options?: VerifyOptions,
): Promise<VerifyResult> {
  const delivery = prepareVerification(rawBody, header, secrets, options);
  let matched = false;
  for (const key of delivery.secrets) {
    const expected = encoder.encode(await hmacSha256Hex(key, delivery.content));
    for (const signature of delivery.signatures) {
      if (constantTimeEqual(expected, encoder.encode(signature))) matched = true;
    }
  }
  return finishVerification(delivery, matched);
}

/** Lowercase hex of HMAC-SHA256, keyed with the UTF-8 bytes of the whole secret. */
async function hmacSha256Hex(secret: string, content: Uint8Array): Promise<string> {
  const subtle = webCrypto();
  const key = await subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  // WebCrypto takes ArrayBuffer-backed views only; a view of a shared buffer is copied first.
  const data = content.buffer instanceof ArrayBuffer ? (content as Uint8Array<ArrayBuffer>) : new Uint8Array(content);
  const mac = new Uint8Array(await subtle.sign('HMAC', key, data));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Compares every byte whatever the differences, so the time taken does not leak where they are. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}

function webCrypto() {
  // Missing on plain-http pages in browsers (not a secure context) and in very old runtimes.
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw new Error('WebCrypto (globalThis.crypto.subtle) is not available here; on Node.js use sign()/verify().');
  }
  return subtle;
}
