import type { FileStore } from '../store/files/file-store.js';

/** Files up to this size are held in memory once read. */
export const maxHeldFileBytes = 128 * 1024;
/** All held contents together stay under this (least recently stored go first). */
const maxHeldBytes = 16 * 1024 * 1024;

/**
 * Small hosted files held in memory (docs/hosting.md), keyed by what names their bytes for
 * good (a SHA-256, or a SHA-256 and the widget tag inserted into it): contents under a key
 * never change, so nothing held can be stale. A miss reads the file store as before.
 */
export class HeldContents {
  private readonly held = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly files: Pick<FileStore, 'open'>) {}

  /** The held bytes under `key`, if any. */
  get(key: string): Buffer | undefined {
    return this.held.get(key);
  }

  /** The file's whole contents (read from the store and held, when small enough); null when it is not stored. */
  async read(sha256: string, size: number): Promise<Buffer | null> {
    const held = this.held.get(sha256);
    if (held) return held;
    const stream = await this.files.open(sha256);
    if (stream === null) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const content = Buffer.concat(chunks);
    if (content.length === size) this.hold(sha256, content);
    return content;
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
}
