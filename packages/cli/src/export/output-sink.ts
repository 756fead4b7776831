import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { ServiceError } from '@svc/protocol';

/** Where an export goes, written with backpressure: memory holds one chunk at a time. */
export interface OutputSink {
  write(chunk: string): Promise<void>;
  /** Everything was written: make it final. */
  commit(): Promise<void>;
  /** Something failed: leave nothing half-written behind. */
  abort(): Promise<void>;
}

/** Writes to `stream` and waits for it to drain whenever its buffer is full. */
class StreamWriter {
  private failure: Error | null = null;

  constructor(readonly stream: Writable) {
    stream.on('error', (error) => {
      this.failure ??= error;
    });
  }

  async write(chunk: string): Promise<void> {
    this.throwIfFailed();
    if (this.stream.write(chunk)) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.stream.off('drain', done).off('error', done).off('close', done);
        resolve();
      };
      this.stream.on('drain', done).on('error', done).on('close', done);
    });
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure;
  }
}

/** The command's stdout (left open: main() flushes it). */
export function streamSink(stream: Writable): OutputSink {
  const writer = new StreamWriter(stream);
  return { write: (chunk) => writer.write(chunk), commit: () => Promise.resolve(), abort: () => Promise.resolve() };
}

/**
 * A file, readable by its owner only (submissions hold personal data). The export is
 * written beside it and renamed into place when complete, so an interrupted export never
 * leaves a truncated file under the requested name.
 */
export function fileSink(path: string): OutputSink {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
  const stream = createWriteStream(temporary, { flags: 'wx', mode: 0o600 });
  const writer = new StreamWriter(stream);
  const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
  const cannotWrite = (error: unknown): ServiceError =>
    new ServiceError('file_unreadable', `cannot write ${path}: ${(error as Error).message}`, undefined, { cause: error });
  return {
    write: async (chunk) => {
      try {
        await writer.write(chunk);
      } catch (error) {
        throw cannotWrite(error);
      }
    },
    commit: async () => {
      stream.end();
      await closed;
      try {
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw cannotWrite(error);
      }
    },
    abort: async () => {
      stream.destroy();
      await closed;
      await rm(temporary, { force: true });
    },
  };
}

/** The reader of stdout went away (`svc … | head`): not a failure of the export. */
export function isBrokenPipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}
