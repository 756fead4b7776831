import type { Readable } from 'node:stream';

/** docs/webhooks.md: at most 64 KiB of an answer is read and kept. */
export const responseBodyLimitBytes = 64 * 1024;

/**
 * Reads at most `limit` bytes of a body. A longer body is cut and its stream destroyed, which
 * closes the connection instead of draining megabytes nobody keeps.
 */
export async function readCappedBody(body: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    if (size + bytes.length > limit) {
      chunks.push(bytes.subarray(0, limit - size));
      size = limit;
      body.destroy();
      break;
    }
    chunks.push(bytes);
    size += bytes.length;
  }
  return Buffer.concat(chunks, size);
}

/** The kept body as text: invalid UTF-8 becomes U+FFFD, and NUL too (PostgreSQL text refuses it). */
export function bodyText(bytes: Buffer): string | null {
  if (bytes.length === 0) return null;
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes).replaceAll('\u0000', '\uFFFD');
}
