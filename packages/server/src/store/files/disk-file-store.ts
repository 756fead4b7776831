import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { sha256Pattern, type FileStore, type StagedFile } from './file-store.js';

const staleStagingMs = 60 * 60 * 1000;

/**
 * Files on local disk under `<data dir>/files/<2 hex>/<sha256>`: staged in `files/.staging`,
 * fsync'd, then renamed into place and the directory fsync'd.
 */
export class DiskFileStore implements FileStore {
  private readonly root: string;
  private readonly staging: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, 'files');
    this.staging = join(this.root, '.staging');
  }

  async init(): Promise<void> {
    await mkdir(this.staging, { recursive: true, mode: 0o700 });
    // Leftovers of requests interrupted by a crash. Only old ones: another process may be
    // sharing this data dir and staging files right now.
    const cutoff = Date.now() - staleStagingMs;
    for (const name of await readdir(this.staging)) {
      const path = join(this.staging, name);
      const info = await stat(path).catch(() => null);
      if (info && info.mtimeMs < cutoff) await rm(path, { force: true });
    }
  }

  async stage(content: AsyncIterable<Uint8Array>): Promise<StagedFile> {
    const path = join(this.staging, randomBytes(12).toString('hex'));
    const handle = await open(path, 'wx', 0o600);
    const hash = createHash('sha256');
    let size = 0;
    try {
      for await (const chunk of content) {
        hash.update(chunk);
        size += chunk.byteLength;
        await handle.write(chunk);
      }
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(path, { force: true });
      throw error;
    }
    await handle.close();
    const sha256 = hash.digest('hex');
    const directory = join(this.root, sha256.slice(0, 2));
    const target = join(directory, sha256);
    return {
      sha256,
      size,
      commit: async () => {
        await mkdir(directory, { recursive: true, mode: 0o700 });
        const existing = await stat(target).catch(() => null);
        if (existing?.size === size) {
          await rm(path, { force: true });
          return;
        }
        await rename(path, target);
        await syncDirectory(directory);
      },
      discard: () => rm(path, { force: true }),
    };
  }

  async open(sha256: string): Promise<Readable | null> {
    if (!sha256Pattern.test(sha256)) return null;
    const path = join(this.root, sha256.slice(0, 2), sha256);
    const exists = await stat(path).catch(() => null);
    return exists ? createReadStream(path) : null;
  }

  async remove(sha256: string): Promise<void> {
    if (!sha256Pattern.test(sha256)) return;
    const directory = join(this.root, sha256.slice(0, 2));
    await rm(join(directory, sha256), { force: true });
    await syncDirectory(directory).catch(() => undefined);
  }
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
