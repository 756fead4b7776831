import { Worker } from 'node:worker_threads';
import type { PreparedSubmission, WriterResult } from '../submission-batch.js';

interface Answer {
  id: number;
  results?: WriterResult[];
  error?: { message: string; code?: string };
}

/** A SQLite error raised in the thread, with its code (`SQLITE_CONSTRAINT_FOREIGNKEY`…). */
export class SqliteThreadError extends Error {
  override readonly name = 'SqliteError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

// Beside this module in src/ (tests) and in dist/ (the build): see the script's header.
const workerScript = new URL('./submission-writer.js', import.meta.url);

/**
 * The main thread's handle on submission-writer.js (the thread): one message per batch, answered
 * once the batch is committed and fsync'd. If the thread dies, every waiting batch fails
 * (and is answered 500; nothing was acknowledged).
 */
export class SubmissionThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private failure: Error | null = null;
  private closed = false;

  constructor(file: string, options: { busyTimeoutMs: number }) {
    this.worker = new Worker(workerScript, { workerData: { file, busyTimeoutMs: options.busyTimeoutMs } });
    this.worker.on('message', (answer: Answer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      waiter?.resolve(answer);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the SQLite writer thread exited (code ${code})`)));
  }

  async commit(writers: readonly PreparedSubmission[], options: { now: number; idempotencyWindowMs: number }): Promise<WriterResult[]> {
    const answer = await this.send({ writers, now: options.now, idempotencyWindowMs: options.idempotencyWindowMs });
    if (answer.error) throw new SqliteThreadError(answer.error.message, answer.error.code);
    if (!answer.results || answer.results.length !== writers.length) throw new Error('the SQLite writer thread answered without a result per submission');
    return answer.results;
  }

  /** Why the thread can no longer commit (it died), or null while it can. */
  get problem(): string | null {
    return this.failure && !this.closed ? `the SQLite writer thread stopped: ${this.failure.message}` : null;
  }

  async close(): Promise<void> {
    if (this.failure) return;
    this.closed = true;
    await this.send({ close: true });
    this.failure = new Error('the SQLite writer thread is closed');
    await this.worker.terminate();
  }

  private send(request: object): Promise<Answer> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...request });
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}
