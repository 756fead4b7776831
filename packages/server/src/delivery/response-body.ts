/** docs/webhooks.md: at most 64 KiB of an answer is read and kept. */
export const responseBodyLimitBytes = 64 * 1024;

/** The kept body as text: invalid UTF-8 becomes U+FFFD, and NUL too (PostgreSQL text refuses it). */
export function bodyText(bytes: Buffer): string | null {
  if (bytes.length === 0) return null;
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes).replaceAll('\u0000', '\uFFFD');
}
