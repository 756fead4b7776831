import type { Metrics } from '../observability/metrics.js';
import type { AttemptResult } from './attempt-delivery.js';

type AttemptCounts = Record<'succeeded' | 'retrying' | 'failed', { inc(): void }>;

/** Each registry's counters by result, made once: labelling per attempt hashed the labels every time. */
const countsOf = new WeakMap<Metrics, AttemptCounts>();

/** Counts an attempt by what became of its delivery, and times it. */
export function observeAttempt(metrics: Metrics, { outcome, record }: AttemptResult): void {
  let counts = countsOf.get(metrics);
  if (!counts) {
    const labelled = (result: string) => metrics.webhookAttempts.labels({ result });
    counts = { succeeded: labelled('succeeded'), retrying: labelled('retrying'), failed: labelled('failed') };
    countsOf.set(metrics, counts);
  }
  counts[record.status === 'pending' ? 'retrying' : record.status].inc();
  metrics.webhookAttemptDuration.observe(outcome.durationMs / 1_000);
}
