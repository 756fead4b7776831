import { randomBytes } from 'node:crypto';
import { open, readFile, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { ByteBudget } from './byte-budget.js';

/**
 * A request body read to its end with bounded memory: its first `memoryBytes` are held, the
 * rest goes to an owner-only file in a spool directory. Every chunk is shown to `observe`
 * as it arrives (a signature is computed over the body while it is read, before anything
 * reads what it says). Past `limitBytes` the read stops with `SpooledBodyTooLarge`, past the
 * budget with `SpoolFull`, and whatever was spooled is removed. `release()` removes the
 * file and gives its bytes back; it is safe to call twice.
 */
export interface SpooledBody {
  readonly size: number;
  /** The whole body: only for a body whose signature held (a spooled one is read back from disk). */
  bytes(): Promise<Buffer>;
  release(): Promise<void>;
}

export class SpooledBodyTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`the body is over ${limitBytes} bytes`);
  }
}

/** Nothing more may be spooled now: the bytes on disk of every body being read are at the budget's bound. */
export class SpoolFull extends Error {
  constructor() {
    super('the spool of request bodies is full');
  }
}

export interface SpoolOptions {
  readonly directory: string;
  readonly memoryBytes: number;
  readonly limitBytes: number;
  /** The bytes all spooled bodies of the process may hold on disk at once. */
  readonly budget: ByteBudget;
}

export async function readSpooledBody(content: AsyncIterable<Uint8Array>, options: SpoolOptions, observe: (chunk: Uint8Array) => void): Promise<SpooledBody> {
  const held: Buffer[] = [];
  let size = 0;
  let file: { path: string; handle: FileHandle } | null = null;
  let taken = 0;
  const removeFile = async () => {
    options.budget.give(taken);
    taken = 0;
    if (!file) return;
    const { path, handle } = file;
    file = null;
    await handle.close().catch(() => undefined);
    await rm(path, { force: true });
  };
  try {
    for await (const piece of content) {
      const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
      size += chunk.byteLength;
      if (size > options.limitBytes) throw new SpooledBodyTooLarge(options.limitBytes);
      observe(chunk);
      if (file === null && size <= options.memoryBytes) {
        held.push(chunk);
        continue;
      }
      const spilling = file === null ? size : chunk.byteLength;
      if (!options.budget.take(spilling)) throw new SpoolFull();
      taken += spilling;
      if (file === null) {
        const path = join(options.directory, `inbound-${randomBytes(12).toString('hex')}`);
        file = { path, handle: await open(path, 'wx', 0o600) };
        for (const earlier of held.splice(0)) await file.handle.write(earlier);
      }
      await file.handle.write(chunk);
    }
  } catch (error) {
    await removeFile();
    throw error;
  }
  const spooled = file;
  if (spooled) await spooled.handle.close();
  let released = false;
  return {
    size,
    bytes: async () => (spooled ? readFile(spooled.path) : Buffer.concat(held, size)),
    release: async () => {
      if (released) return;
      released = true;
      options.budget.give(taken);
      if (spooled) await rm(spooled.path, { force: true });
    },
  };
}
