import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Spool files older than this are leftovers of an interrupted process. */
const staleMs = 60 * 60 * 1000;

export interface SpooledFile {
  readonly path: string;
  readonly sha256: string;
  readonly size: number;
}

/**
 * Writes `content` to a new owner-only file in `directory`, hashing it on the way: what both
 * file stores do while a request is read, so memory stays at one chunk whatever the file's
 * size. `sync` flushes it to disk before returning. On failure nothing is left behind.
 */
export async function spoolToFile(directory: string, content: AsyncIterable<Uint8Array>, options: { sync: boolean }): Promise<SpooledFile> {
  const path = join(directory, randomBytes(12).toString('hex'));
  const handle = await open(path, 'wx', 0o600);
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of content) {
      hash.update(chunk);
      size += chunk.byteLength;
      await handle.write(chunk);
    }
    if (options.sync) await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(path, { force: true });
    throw error;
  }
  await handle.close();
  return { path, sha256: hash.digest('hex'), size };
}

/**
 * Creates the spool directory (owner-only) and removes leftovers of requests a crash
 * interrupted. Only old ones: another process may be sharing the directory and spooling
 * files right now.
 */
export async function prepareSpool(directory: string, now = Date.now()): Promise<void> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  for (const name of await readdir(directory)) {
    const path = join(directory, name);
    const info = await stat(path).catch(() => null);
    if (info && info.mtimeMs < now - staleMs) await rm(path, { force: true });
  }
}
