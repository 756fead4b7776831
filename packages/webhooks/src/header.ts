import { WebhookVerificationError } from './errors.js';

/** Carries `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-service-signature';
/** The event type, e.g. `form.submission.created`. */
export const WEBHOOK_EVENT_HEADER = 'x-service-event';
/** The event id (`evt_...`): the same on every retry, so receivers de-duplicate with it. */
export const WEBHOOK_EVENT_ID_HEADER = 'x-service-event-id';
/** The delivery id: one per webhook and event, shown in the delivery log. */
export const WEBHOOK_DELIVERY_HEADER = 'x-service-delivery';
/** `1` on a test send (`svc webhooks test`, **Send test event**), whose payload says `"test": true`: sample data, never real. */
export const WEBHOOK_TEST_HEADER = 'x-service-test';

export interface SignatureHeader {
  /** Unix seconds, from `t=`. */
  timestamp: number;
  /** Every `v1=` value, in header order: one per secret while a secret is being rotated. */
  signatures: string[];
}

/** What frameworks hand over for a header: absent, one value, or (Node.js typings) a list of lines. */
export type SignatureHeaderValue = string | readonly string[] | null | undefined;

const EXPECTED_SHAPE = 'expected t=<unix seconds>,v1=<64 lowercase hex characters>';
// Canonical decimal only (no sign, no leading zero), so the number prints back to the exact
// text that was signed.
const TIMESTAMP = /^(?:0|[1-9][0-9]*)$/;
const V1_SIGNATURE = /^[0-9a-f]{64}$/;

/**
 * Parses an `x-service-signature` value. Whitespace around entries, keys and values is
 * tolerated; empty entries and unknown keys (a future `v2=`) are ignored.
 *
 * @throws {WebhookVerificationError} `missing_header` when absent or empty, `malformed_header`
 *   when there is no valid `t=`, no `v1=`, or a `v1=` that is not 64 lowercase hex characters.
 */
export function parseSignatureHeader(header: SignatureHeaderValue): SignatureHeader {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const entry of headerText(header).split(',')) {
    if (entry.trim() === '') continue;
    const eq = entry.indexOf('=');
    const key = entry.slice(0, Math.max(eq, 0)).trim();
    const value = entry.slice(eq + 1).trim();
    if (key === '') throw malformed('every entry must be a key=value pair');
    if (key === 't') {
      if (timestamp !== undefined) throw malformed('t= appears more than once');
      timestamp = parseTimestamp(value);
    } else if (key === 'v1') {
      if (!V1_SIGNATURE.test(value)) throw malformed('a v1= value is not 64 lowercase hex characters');
      signatures.push(value);
    }
    // Any other key is a scheme this version does not know: ignored.
  }
  if (timestamp === undefined) throw malformed('there is no t= timestamp');
  if (signatures.length === 0) throw malformed('there is no v1= signature');
  return { timestamp, signatures };
}

/** `t=<timestamp>,v1=<signature>,...`, the inverse of `parseSignatureHeader`. */
export function formatSignatureHeader(timestamp: number, signatures: readonly string[]): string {
  return [`t=${timestamp}`, ...signatures.map((signature) => `v1=${signature}`)].join(',');
}

/** The header as one string; a list of lines (as Node.js types custom headers) is one list. */
function headerText(header: unknown): string {
  const text = Array.isArray(header) && header.every((line) => typeof line === 'string') ? header.join(',') : header;
  if (text === null || text === undefined) throw missing();
  if (typeof text !== 'string') throw malformed('the value must be a string');
  if (text.trim() === '') throw missing();
  return text;
}

function parseTimestamp(value: string): number {
  const timestamp = Number(value);
  if (!TIMESTAMP.test(value) || !Number.isSafeInteger(timestamp)) {
    throw malformed('t= is not a whole number of unix seconds');
  }
  return timestamp;
}

function missing(): WebhookVerificationError {
  return new WebhookVerificationError('missing_header', `The ${WEBHOOK_SIGNATURE_HEADER} header is missing or empty.`);
}

function malformed(reason: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_header', `The ${WEBHOOK_SIGNATURE_HEADER} header is malformed: ${reason} (${EXPECTED_SHAPE}).`);
}
