// One table of verification cases, run through verify() and verifyAsync(): both must give
// exactly these outcomes.
import type { VerifyOptions } from '../scheme.js';
import { ASCII_BODY, BYTES_BODY, OTHER_SECRET, SECRET, T, UTF8_BODY } from './vectors.js';

const SIG = 'cef06e1ded47a5f6e6aecdc7cea0eb25f777f847fb2e9e5f480ea312a823d9a2'; // SECRET, ASCII_BODY
const OTHER_SIG = '85e67e4d78f9d8475c77da236a646e4a3b1c8127e2be7b9ecd62c71f62a8a873'; // OTHER_SECRET, ASCII_BODY
const UTF8_SIG = '2bf9c4af07ef083c4c1ad5da1027766d17e62a55589ed3388a07e7a795a5ac94';
const BYTES_SIG = '1ee9b06f50eb3cbb9ae7fd1d79d389749437060ffa517f36b91dd38cfbf5d3b5';
const HEADER = `t=${T},v1=${SIG}`;

export type Outcome = 'ok' | 'TypeError' | 'body_not_raw' | 'missing_header' | 'malformed_header' | 'signature_mismatch' | 'timestamp_out_of_range';

export interface Scenario {
  name: string;
  body: unknown;
  header: unknown;
  secrets: unknown;
  options?: VerifyOptions;
  expected: Outcome;
}

const at = (now: number, tolerance?: number): VerifyOptions => (tolerance === undefined ? { now } : { now, tolerance });
const oneByteChanged = (() => {
  const bytes = new TextEncoder().encode(ASCII_BODY);
  bytes[7] = (bytes[7] ?? 0) ^ 0x01;
  return bytes;
})();
const flipLastHexDigit = (hex: string) => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');

export const SCENARIOS: Scenario[] = [
  // Valid deliveries, in every body representation.
  { name: 'valid, string body', body: ASCII_BODY, header: HEADER, secrets: SECRET, options: at(T), expected: 'ok' },
  { name: 'valid, Buffer-like Uint8Array body', body: new TextEncoder().encode(ASCII_BODY), header: HEADER, secrets: SECRET, options: at(T), expected: 'ok' },
  { name: 'valid, ArrayBuffer body', body: new TextEncoder().encode(ASCII_BODY).buffer, header: HEADER, secrets: SECRET, options: at(T), expected: 'ok' },
  {
    name: 'valid, a view into a larger buffer',
    body: new TextEncoder().encode(`xx${ASCII_BODY}yy`).subarray(2, 2 + ASCII_BODY.length),
    header: HEADER, secrets: SECRET, options: at(T), expected: 'ok',
  },
  { name: 'valid, UTF-8 multibyte body', body: UTF8_BODY, header: `t=${T},v1=${UTF8_SIG}`, secrets: SECRET, options: at(T), expected: 'ok' },
  { name: 'valid, non-UTF-8 bytes body', body: BYTES_BODY, header: `t=${T},v1=${BYTES_SIG}`, secrets: SECRET, options: at(T), expected: 'ok' },
  { name: 'valid, entries in reverse order', body: ASCII_BODY, header: `v1=${SIG},t=${T}`, secrets: SECRET, options: at(T), expected: 'ok' },

  // Rotation on the sender's side (two v1) and on the receiver's side (two secrets).
  { name: 'sender rotating, receiver has the old secret', body: ASCII_BODY, header: `t=${T},v1=${SIG},v1=${OTHER_SIG}`, secrets: SECRET, options: at(T), expected: 'ok' },
  { name: 'sender rotating, receiver has the new secret', body: ASCII_BODY, header: `t=${T},v1=${SIG},v1=${OTHER_SIG}`, secrets: OTHER_SECRET, options: at(T), expected: 'ok' },
  { name: 'receiver rotating, sender uses the old secret', body: ASCII_BODY, header: HEADER, secrets: [OTHER_SECRET, SECRET], options: at(T), expected: 'ok' },
  { name: 'receiver rotating, sender uses the new secret', body: ASCII_BODY, header: `t=${T},v1=${OTHER_SIG}`, secrets: [OTHER_SECRET, SECRET], options: at(T), expected: 'ok' },
  { name: 'sender moved on to a secret the receiver lacks', body: ASCII_BODY, header: `t=${T},v1=${OTHER_SIG}`, secrets: [SECRET], options: at(T), expected: 'signature_mismatch' },

  // The timestamp window: inclusive at +-tolerance, in both directions.
  { name: 'exactly tolerance old', body: ASCII_BODY, header: HEADER, secrets: SECRET, options: at(T + 300), expected: 'ok' },
  { name: 'tolerance + 1 old', body: ASCII_BODY, header: HEADER, secrets: SECRET, options: at(T + 301), expected: 'timestamp_out_of_range' },
  { name: 'exactly tolerance in the future', body: ASCII_BODY, header: HEADER, secrets: SECRET, options: at(T - 300), expected: 'ok' },
  { name: 'tolerance + 1 in the future', body: ASCII_BODY, header: HEADER, secrets: SECRET, options: at(T - 301), expected: 'timestamp_out_of_range' },
  { name: 'custom tolerance, inside', body: ASCII_BODY, header: HEADER, secrets: SECRET, options: at(T + 10, 10), expected: 'ok' },
  { name: 'custom tolerance, outside', body: ASCII_BODY, header: HEADER, secrets: SECRET, options: at(T - 11, 10), expected: 'timestamp_out_of_range' },
  { name: 'tolerance 0, same second', body: ASCII_BODY, header: HEADER, secrets: SECRET, options: at(T, 0), expected: 'ok' },
  { name: 'tolerance Infinity disables the window', body: ASCII_BODY, header: HEADER, secrets: SECRET, options: at(T + 10 ** 9, Infinity), expected: 'ok' },
  { name: 'stale and forged: the signature is checked first', body: 'forged', header: HEADER, secrets: SECRET, options: at(T + 3600), expected: 'signature_mismatch' },

  // Tampering.
  { name: 'one byte of the body changed', body: oneByteChanged, header: HEADER, secrets: SECRET, options: at(T), expected: 'signature_mismatch' },
  { name: 'body re-serialised with whitespace', body: JSON.stringify(JSON.parse(ASCII_BODY), null, 2), header: HEADER, secrets: SECRET, options: at(T), expected: 'signature_mismatch' },
  { name: 'body with a trailing newline', body: `${ASCII_BODY}\n`, header: HEADER, secrets: SECRET, options: at(T), expected: 'signature_mismatch' },
  { name: 'timestamp changed, still in the window', body: ASCII_BODY, header: `t=${T + 1},v1=${SIG}`, secrets: SECRET, options: at(T), expected: 'signature_mismatch' },
  { name: 'signature changed', body: ASCII_BODY, header: `t=${T},v1=${flipLastHexDigit(SIG)}`, secrets: SECRET, options: at(T), expected: 'signature_mismatch' },
  { name: 'wrong secret', body: ASCII_BODY, header: HEADER, secrets: 'whsec_wrong', options: at(T), expected: 'signature_mismatch' },
  { name: 'secret without its whsec_ prefix', body: ASCII_BODY, header: HEADER, secrets: SECRET.slice('whsec_'.length), options: at(T), expected: 'signature_mismatch' },

  // Header syntax.
  { name: 'spaces and tabs around commas and equals', body: ASCII_BODY, header: ` t = ${T} ,\tv1 =\t${SIG} `, secrets: SECRET, options: at(T), expected: 'ok' },
  { name: 'empty entries are ignored', body: ASCII_BODY, header: `t=${T},,v1=${SIG},`, secrets: SECRET, options: at(T), expected: 'ok' },
  { name: 'unknown v2 entries are ignored', body: ASCII_BODY, header: `t=${T},v2=not-hex!,v1=${SIG},v2=${'0'.repeat(64)}`, secrets: SECRET, options: at(T), expected: 'ok' },
  { name: 'only a v2 entry', body: ASCII_BODY, header: `t=${T},v2=${SIG}`, secrets: SECRET, options: at(T), expected: 'malformed_header' },
  { name: 'uppercase hex is rejected', body: ASCII_BODY, header: `t=${T},v1=${SIG.toUpperCase()}`, secrets: SECRET, options: at(T), expected: 'malformed_header' },
  { name: 'missing header: undefined', body: ASCII_BODY, header: undefined, secrets: SECRET, options: at(T), expected: 'missing_header' },
  { name: 'missing header: null', body: ASCII_BODY, header: null, secrets: SECRET, options: at(T), expected: 'missing_header' },
  { name: 'missing header: empty', body: ASCII_BODY, header: '', secrets: SECRET, options: at(T), expected: 'missing_header' },
  { name: 'missing header: blank', body: ASCII_BODY, header: '  ', secrets: SECRET, options: at(T), expected: 'missing_header' },
  { name: 'malformed: garbage', body: ASCII_BODY, header: 'garbage', secrets: SECRET, options: at(T), expected: 'malformed_header' },
  { name: 'malformed: no t', body: ASCII_BODY, header: `v1=${SIG}`, secrets: SECRET, options: at(T), expected: 'malformed_header' },
  { name: 'malformed: no v1', body: ASCII_BODY, header: `t=${T}`, secrets: SECRET, options: at(T), expected: 'malformed_header' },
  { name: 'malformed: non-integer t', body: ASCII_BODY, header: `t=${T}.5,v1=${SIG}`, secrets: SECRET, options: at(T), expected: 'malformed_header' },
  { name: 'malformed: short v1', body: ASCII_BODY, header: `t=${T},v1=${SIG.slice(1)}`, secrets: SECRET, options: at(T), expected: 'malformed_header' },
  { name: 'header as one line in an array', body: ASCII_BODY, header: [HEADER], secrets: SECRET, options: at(T), expected: 'ok' },
  { name: 'header split over two lines', body: ASCII_BODY, header: [`t=${T}`, `v1=${SIG}`], secrets: SECRET, options: at(T), expected: 'ok' },
  { name: 'missing header: no lines', body: ASCII_BODY, header: [], secrets: SECRET, options: at(T), expected: 'missing_header' },
  { name: 'malformed: two signature headers', body: ASCII_BODY, header: [HEADER, HEADER], secrets: SECRET, options: at(T), expected: 'malformed_header' },
  { name: 'malformed: a number', body: ASCII_BODY, header: 1700000000, secrets: SECRET, options: at(T), expected: 'malformed_header' },
  { name: 'malformed: an array holding a non-string', body: ASCII_BODY, header: [HEADER, 1], secrets: SECRET, options: at(T), expected: 'malformed_header' },

  // The body must be raw.
  { name: 'parsed JSON object body', body: JSON.parse(ASCII_BODY), header: HEADER, secrets: SECRET, options: at(T), expected: 'body_not_raw' },
  { name: 'array body', body: [1, 2], header: HEADER, secrets: SECRET, options: at(T), expected: 'body_not_raw' },
  { name: 'number body', body: 42, header: HEADER, secrets: SECRET, options: at(T), expected: 'body_not_raw' },
  { name: 'undefined body', body: undefined, header: HEADER, secrets: SECRET, options: at(T), expected: 'body_not_raw' },
  { name: 'body_not_raw wins over a missing header', body: {}, header: undefined, secrets: SECRET, options: at(T), expected: 'body_not_raw' },

  // Programming errors.
  { name: 'empty secret list', body: ASCII_BODY, header: HEADER, secrets: [], expected: 'TypeError' },
  { name: 'empty secret', body: ASCII_BODY, header: HEADER, secrets: '', expected: 'TypeError' },
  { name: 'a non-string secret', body: ASCII_BODY, header: HEADER, secrets: [SECRET, 42], expected: 'TypeError' },
  { name: 'a secret with a trailing newline', body: ASCII_BODY, header: HEADER, secrets: `${SECRET}\n`, expected: 'TypeError' },
  { name: 'no secrets at all', body: ASCII_BODY, header: HEADER, secrets: undefined, expected: 'TypeError' },
  { name: 'negative tolerance', body: ASCII_BODY, header: HEADER, secrets: SECRET, options: { now: T, tolerance: -1 }, expected: 'TypeError' },
  { name: 'NaN tolerance', body: ASCII_BODY, header: HEADER, secrets: SECRET, options: { now: T, tolerance: NaN }, expected: 'TypeError' },
  { name: 'now in milliseconds', body: ASCII_BODY, header: HEADER, secrets: SECRET, options: { now: T * 1000 }, expected: 'TypeError' },
];
