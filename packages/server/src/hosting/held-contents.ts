import type { Readable } from 'node:stream';
import type { ByteRange, FileStore } from '../store/files/file-store.js';
import { wholeContentStream } from '../store/files/held-files.js';

/** Files up to this size are held in memory once read. */
export const maxHeldFileBytes = 128 * 1024;
/** All held contents together stay under this (least recently stored go first). */
const maxHeldBytes = 16 * 1024 * 1024;

/** A hosted file's contents as stored: the size is what the file store holds, never a declaration. */
export interface HostedContent {
  readonly size: number;
  /** The whole bytes, when small enough to be held (up to 128 KiB); null for larger files. */
  readonly bytes: Buffer | null;
  /** The bytes, or those of `range`, as a stream. */
  read(range?: ByteRange): Readable;
}

/**
 * Small hosted files held in memory (docs/hosting.md), keyed by what names their bytes for
 * good (a SHA-256, or a SHA-256 and the widget tag inserted into it): contents under a key
 * never change, so nothing held is stale while the contents are stored. Everything is
 * forgotten when `clear()` is called (contents removed, what hostnames serve changed). A
 * miss reads the file store as before.
 */
export class HeldContents {
  private readonly held = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly files: Pick<FileStore, 'find'>) {}

  /** The held bytes under `key`, if any. */
  get(key: string): Buffer | undefined {
    return this.held.get(key);
  }

  /** The file's contents, from memory when held; small ones (by their stored size) are read whole and held. Null when not stored. */
  async find(sha256: string): Promise<HostedContent | null> {
    const held = this.held.get(sha256);
    if (held) return whole(held);
    const stored = await this.files.find(sha256);
    if (stored === null) return null;
    if (stored.size > maxHeldFileBytes) return { size: stored.size, bytes: null, read: (range) => stored.read(range) };
    const content = await readAll(stored.read());
    if (content.length === stored.size) this.hold(sha256, content);
    return whole(content);
  }

  hold(key: string, content: Buffer): void {
    if (content.length > maxHeldFileBytes || this.held.has(key)) return;
    this.held.set(key, content);
    this.bytes += content.length;
    for (const [oldest, buffer] of this.held) {
      if (this.bytes <= maxHeldBytes) break;
      this.held.delete(oldest);
      this.bytes -= buffer.length;
    }
  }

  clear(): void {
    this.held.clear();
    this.bytes = 0;
  }
}

/** Every byte of a stream. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function whole(content: Buffer): HostedContent {
  return { size: content.length, bytes: content, read: (range) => wholeContentStream(content, range) };
}
