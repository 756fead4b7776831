import { ServiceError } from '@svc/protocol';
import { Batcher } from '../lib/batcher.js';
import type { PreparedSubmission, SubmissionOutcome } from '../store/submission-batch.js';
import type { Store } from '../store/store.js';

export interface SubmissionWriterOptions {
  readonly idempotencyWindowMs: number;
  /** Largest number of submissions committed together. */
  readonly maxBatch?: number;
  /** Batches committed at once (one is right for SQLite's single writer). */
  readonly concurrency?: number;
  /** Told the size and duration (seconds) of every committed batch, for metrics. */
  readonly onBatch?: (size: number, seconds: number) => void;
}

/**
 * The durable write path of the form endpoint. Submissions that arrive together are
 * committed together (Store.commitSubmissions): one transaction, one fsync, then every
 * caller gets its answer.
 * A batch that fails is retried one submission at a time, so one bad submission (its form
 * deleted a moment ago, say) never fails its neighbours.
 */
export class SubmissionWriter {
  private readonly batcher: Batcher<PreparedSubmission, SubmissionOutcome>;

  constructor(
    private readonly store: Store,
    private readonly options: SubmissionWriterOptions,
  ) {
    this.batcher = new Batcher({
      run: (items) => this.commit(items),
      maxBatch: options.maxBatch ?? 256,
      concurrency: options.concurrency ?? store.capabilities.writeConcurrency,
      isolateFailures: true,
    });
  }

  async write(item: PreparedSubmission): Promise<SubmissionOutcome> {
    try {
      return await this.batcher.add(item);
    } catch (error) {
      throw this.explain(error);
    }
  }

  /** A submission whose form vanished between lookup and commit is answered as unknown. */
  private explain(error: unknown): unknown {
    if (this.store.classifyFailure(error) === 'foreign_key') return new ServiceError('not_found', 'the form was deleted while this submission was being stored', undefined, { cause: error });
    return error;
  }

  /** Waits for every submission handed over so far to be committed. */
  drain(): Promise<void> {
    return this.batcher.drain();
  }

  private async commit(items: PreparedSubmission[]): Promise<SubmissionOutcome[]> {
    const started = performance.now();
    const outcomes = await this.store.commitSubmissions(items, { now: Date.now(), idempotencyWindowMs: this.options.idempotencyWindowMs });
    this.options.onBatch?.(items.length, (performance.now() - started) / 1000);
    if (outcomes.some((outcome) => !outcome.replayed)) this.store.signals.events.announce();
    return outcomes;
  }
}
