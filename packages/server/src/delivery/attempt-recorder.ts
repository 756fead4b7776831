import type { Logger } from 'pino';
import { Batcher } from '../lib/batcher.js';
import { recordAttempts, type AttemptRecord } from '../store/queries/record-attempts.js';
import type { Store } from '../store/store.js';

/**
 * Records finished attempts with group commit: attempts that finish together share one
 * transaction. A batch that fails is retried one attempt at a time; an attempt that still
 * cannot be recorded is left to its lease, so it is made again later (at least once).
 */
export class AttemptRecorder {
  private readonly batcher: Batcher<AttemptRecord, boolean>;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {
    this.batcher = new Batcher({
      run: (records) => this.store.transaction((trx) => recordAttempts(trx, records, this.now())),
      maxBatch: 500,
      concurrency: store.capabilities.writeConcurrency,
      isolateFailures: true,
    });
  }

  /** Resolves true when recorded, false when the lease was lost or recording failed. */
  async record(record: AttemptRecord): Promise<boolean> {
    try {
      return await this.batcher.add(record);
    } catch (error) {
      this.logger.error({ err: error, delivery: record.deliveryId }, 'could not record a delivery attempt; it will be made again after its lease');
      return false;
    }
  }

  drain(): Promise<void> {
    return this.batcher.drain();
  }
}
