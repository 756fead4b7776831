import type { Metrics } from '../observability/metrics.js';
import type { AttemptResult } from './attempt-delivery.js';

/** Counts an attempt by what became of its delivery, and times it. */
export function observeAttempt(metrics: Metrics, { outcome, record }: AttemptResult): void {
  metrics.webhookAttempts.inc({ result: record.status === 'pending' ? 'retrying' : record.status });
  metrics.webhookAttemptDuration.observe(outcome.durationMs / 1_000);
}
