import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import tar from 'tar-stream';

/**
 * A tar file written as a stream (tar-stream): entries one after another, each of a size
 * known before its bytes, with backpressure all the way to the file, so memory stays at a
 * few buffers whatever the archive's size.
 */
export class ArchiveWriter {
  private readonly pack = tar.pack();
  private readonly file;
  private readonly done: Promise<void>;
  private readonly mtime: Date;
  bytes = 0;

  constructor(path: string, mtime: Date) {
    this.mtime = mtime;
    this.file = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    this.done = new Promise((resolve, reject) => {
      this.file.once('close', resolve);
      this.file.once('error', reject);
      this.pack.once('error', reject);
    });
    // Kept from being an unhandled rejection; awaited by finish().
    this.done.catch(() => undefined);
    this.pack.on('data', (data: unknown) => {
      const chunk = data as Buffer;
      this.bytes += chunk.length;
      if (!this.file.write(chunk)) {
        this.pack.pause();
        this.file.once('drain', () => this.pack.resume());
      }
    });
    this.pack.once('end', () => this.file.end());
  }

  /** One member of `size` bytes from `source` (which must give exactly that many). */
  async add(name: string, size: number, source: AsyncIterable<Uint8Array>): Promise<void> {
    let finished!: () => void;
    let failed!: (error: Error) => void;
    const written = new Promise<void>((resolve, reject) => {
      finished = resolve;
      failed = reject;
    });
    const entry = this.pack.entry({ name, size, mode: 0o600, mtime: this.mtime, type: 'file' }, (error) => (error ? failed(error) : finished()));
    for await (const chunk of source) {
      if (!entry.write(chunk)) await Promise.race([once(entry, 'drain'), written]);
    }
    entry.end(undefined);
    await Promise.race([written, this.done.then(() => Promise.reject(new Error('the archive ended early')))]);
  }

  /** Ends the archive and waits until the file is written and closed. */
  async finish(): Promise<void> {
    this.pack.finalize();
    await this.done;
  }

  /** Stops writing (after a failure); the caller removes the file. */
  async abort(): Promise<void> {
    this.pack.destroy();
    this.file.destroy();
    await this.done.catch(() => undefined);
  }
}
