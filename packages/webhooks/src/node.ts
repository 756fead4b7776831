// The Node.js build: the synchronous API on node:crypto, plus everything from the web build.
import { createHmac, timingSafeEqual } from 'node:crypto';
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

export * from './web.js';

/**
 * The `x-service-signature` value for a body: `t=<timestamp>,v1=<hex>`, with one `v1=` per
 * secret, in the order given.
 *
 * @param secret the webhook signing secret (`whsec_...`), or several while rotating.
 * @param rawBody the exact body that will be sent.
 * @param timestamp unix seconds; default now.
 */
export function sign(secret: string | readonly string[], rawBody: RawBody, timestamp: number = currentTimestamp()): string {
  const { secrets, content } = prepareSigning(secret, rawBody, timestamp);
  return formatSignatureHeader(timestamp, secrets.map((key) => hmacSha256Hex(key, content)));
}

/**
 * Checks that a delivery was signed with one of `secrets` and is recent: valid when any `v1=`
 * matches any secret and `t=` is within `options.tolerance` seconds (default 300) of now.
 *
 * @returns `{ timestamp }`, the signed `t=`.
 * @throws {WebhookVerificationError} `body_not_raw`, `missing_header`, `malformed_header`,
 *   `signature_mismatch` or `timestamp_out_of_range`.
 * @throws {TypeError} on programming errors: no secret, bad options.
 */
export function verify(
  rawBody: RawBody,
  header: SignatureHeaderValue,
  secrets: string | readonly string[],
  options?: VerifyOptions,
): VerifyResult {
  const delivery = prepareVerification(rawBody, header, secrets, options);
  let matched = false;
  for (const key of delivery.secrets) {
    const expected = Buffer.from(hmacSha256Hex(key, delivery.content));
    for (const signature of delivery.signatures) {
      // Both sides are 64 hex characters: the header parser guarantees it.
      if (timingSafeEqual(expected, Buffer.from(signature))) matched = true;
    }
  }
  return finishVerification(delivery, matched);
}

/** Lowercase hex of HMAC-SHA256, keyed with the UTF-8 bytes of the whole secret. */
function hmacSha256Hex(secret: string, content: Uint8Array): string {
  return createHmac('sha256', secret).update(content).digest('hex');
}
