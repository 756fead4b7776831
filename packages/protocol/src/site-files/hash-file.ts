import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** A file's SHA-256 (hex) and size, read as a stream: how a deploy names a file's contents. */
export async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { sha256: hash.digest('hex'), size };
}
