import type { Readable } from 'node:stream';

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
