import type { DeliveryJob } from '../store/queries/delivery-jobs.js';
import type { AttemptRecord } from '../store/queries/record-attempts.js';
import { attemptDelivery, type AttemptDependencies, type AttemptResult } from './attempt-delivery.js';

export interface SenderDependencies extends AttemptDependencies {
  /** Records an attempt, fenced on its lease; resolves false when it was not recorded. */
  readonly record: (record: AttemptRecord) => Promise<boolean>;
}

export interface SentDelivery {
  readonly result: AttemptResult;
  /** False when the lease was taken over or the outcome could not be recorded. */
  readonly recorded: boolean;
}

/**
 * Attempts one leased delivery and records what became of it: the delivery worker's every
 * attempt, and `svc webhooks test`'s one. It decides nothing about slots or claims; the
 * caller hears `attempted` as soon as the request is over, before the record is made.
 */
export class DeliverySender {
  constructor(private readonly dependencies: SenderDependencies) {}

  async send(job: DeliveryJob, attempted?: (result: AttemptResult) => void): Promise<SentDelivery> {
    const result = await attemptDelivery(job, this.dependencies);
    attempted?.(result);
    return { result, recorded: await this.dependencies.record(result.record) };
  }
}
