import { Batcher } from '../lib/batcher.js';
import { recordAttempts, type AttemptRecord } from '../store/queries/record-attempts.js';
import type { Store } from '../store/store.js';

/** While the store is unavailable, an attempt's outcome is offered to it again this often. */
const recordRetryMs = 1_000;
/** An outcome waits this long for others to share its transaction… */
const lingerMs = 20;
/** …or until this many wait. */
const lingerBatch = 64;

interface Lingering {
  readonly record: AttemptRecord;
  readonly resolve: (recorded: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Records finished attempts with group commit: an outcome waits up to `lingerMs` for others,
 * so that under load tens of attempts share one transaction (the worker's slots are free
 * already: recording holds none). A batch that fails is retried one attempt at a time. An
 * attempt whose outcome could not be recorded because the store was unavailable (a database
 * restart, a full disk) is offered again every second until the store takes it, so it is
 * neither lost nor left waiting for its lease; if the worker stops first, its lease brings it
 * back (at least once). One that fails for any other reason is left to its lease.
 */
export class AttemptRecorder {
  private readonly batcher: Batcher<AttemptRecord, boolean>;
  private stopping = false;
  private readonly waits = new Set<() => void>();
  private lingering: Lingering[] = [];
  private lingerTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: Store,
    private readonly reportFailure: (error: unknown, context: string) => void,
    private readonly now: () => number,
  ) {
    this.batcher = new Batcher({
      // Not waiting for an fsync (docs/webhooks.md, "Delivery"): a power cut may undo the
      // last outcomes, and those deliveries are then sent again after their lease, which
      // at-least-once allows; a killed process loses nothing.
      run: (records) => this.store.transaction((trx) => recordAttempts(trx, records, this.now()), { durable: false }),
      maxBatch: 500,
      concurrency: store.capabilities.writeConcurrency,
      isolateFailures: true,
    });
  }

  /** Resolves true when recorded, false when the lease was lost or recording failed. */
  async record(record: AttemptRecord): Promise<boolean> {
    for (;;) {
      try {
        return await this.linger(record);
      } catch (error) {
        this.reportFailure(error, `could not record an attempt of delivery ${record.deliveryId}; it will be made again after its lease`);
        if (this.stopping || this.store.dependencyFailure(error) === null) return false;
        await this.pause();
        if (this.stopping) return false;
      }
    }
  }

  /** Stops offering outcomes again: what is still unrecorded is left to its lease. */
  stopRetrying(): void {
    this.stopping = true;
    this.flush();
    for (const wake of this.waits) wake();
  }

  /** Records what lingers now and waits for the batches in flight. */
  drain(): Promise<void> {
    this.flush();
    return this.batcher.drain();
  }

  private linger(record: AttemptRecord): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.lingering.push({ record, resolve, reject });
      if (this.stopping || this.lingering.length >= lingerBatch) this.flush();
      else if (this.lingerTimer === null) {
        this.lingerTimer = setTimeout(() => this.flush(), lingerMs);
        this.lingerTimer.unref();
      }
    });
  }

  /** Hands what lingers to the batcher at once: one batch. */
  private flush(): void {
    if (this.lingerTimer !== null) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    for (const { record, resolve, reject } of this.lingering.splice(0)) this.batcher.add(record).then(resolve, reject);
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waits.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, recordRetryMs);
      this.waits.add(wake);
    });
  }
}
