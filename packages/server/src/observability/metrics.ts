import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RateLimitObserver } from '../ratelimit/rate-limiter.js';
import type { BackupStatus } from './backup-status.js';

/** Prometheus metrics of one server; a registry of its own, so tests can run several. */
export class Metrics {
  readonly registry = new Registry();
  readonly requests = this.counter('svc_http_requests_total', 'HTTP requests answered, by route and status code.', ['route', 'method', 'status']);
  readonly latency = this.histogram('svc_http_request_duration_seconds', 'Time to answer HTTP requests, by route.', [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10], ['route']);
  readonly submissions = this.counter('svc_form_submissions_total', 'Form submissions stored, by state (inbox or spam).', ['state']);
  readonly submissionBatchSize = this.histogram('svc_submission_batch_size', 'Submissions committed together in one group commit.', [1, 2, 4, 8, 16, 32, 64, 128, 256]);
  readonly submissionCommitDuration = this.histogram('svc_submission_commit_duration_seconds', 'Time to commit one group of submissions durably (waiting for the writer included).', [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]);
  readonly webhookAttempts = this.counter('svc_webhook_attempts_total', 'Webhook delivery attempts made by this process, by what became of the delivery (succeeded, retrying, failed).', ['result']);
  readonly webhookAttemptDuration = this.histogram('svc_webhook_attempt_duration_seconds', 'Time from the start of a webhook delivery attempt to the end of its answer.', [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);

  readonly retentionRemoved = this.counter('svc_retention_removed_total', 'Rows removed by retention, by kind (deliveries, events, spam, submissions).', ['kind']);

  readonly connectionsRefused = this.counter('svc_connections_refused_total', 'Connections closed on arrival, by limit (total or per_client).', ['limit']);

  readonly rateLimitWindowsDropped = this.counter('svc_rate_limit_windows_dropped_total', 'Open rate-limit windows dropped to stay within --rate-limit-keys (the least recently counted), by limit (form, cli, auth).', ['limit']);

  readonly rateLimitFallbacks = this.counter('svc_rate_limit_fallbacks_total', 'Rate-limit counts made in this process because Redis was unreachable or did not answer in time.');

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'svc_' });
  }

  private counter<const L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  private histogram<const L extends string = never>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []): Histogram<L> {
    return new Histogram({ name, help, buckets, labelNames, registers: [this.registry] });
  }

  /** Reports, at each scrape, the rate-limit windows this process holds per limit. */
  watchRateLimitWindows(held: () => ReadonlyMap<string, number>): void {
    new Gauge({
      name: 'svc_rate_limit_windows',
      help: 'Rate-limit windows held in this process, by limit (form, cli, auth); at most --rate-limit-keys each.',
      labelNames: ['limit'] as const,
      registers: [this.registry],
      collect() {
        for (const [limit, count] of held()) this.set({ limit }, count);
      },
    });
  }

  /** Reports, at each scrape, what the scheduled backups last did (docs/server.md, "Scheduled backups"). */
  watchBackups(status: BackupStatus): void {
    const gauge = (name: string, help: string, read: () => number | null): void =>
      void new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const value = read();
          if (value !== null) this.set(value);
        },
      });
    gauge('svc_backup_last_success_timestamp_seconds', 'When the last scheduled backup was written (Unix time).', () => (status.lastSuccessAt === null ? null : status.lastSuccessAt / 1000));
    gauge('svc_backup_last_failure_timestamp_seconds', 'When a scheduled backup last failed (Unix time); the reason is in the log.', () => (status.lastFailureAt === null ? null : status.lastFailureAt / 1000));
    gauge('svc_backup_failing', '1 when the last scheduled backup failed, else 0.', () => (status.failing ? 1 : 0));
    gauge('svc_backup_last_duration_seconds', 'How long the last scheduled backup took.', () => (status.lastDurationMs === null ? null : status.lastDurationMs / 1000));
    gauge('svc_backup_last_size_bytes', 'The size of the last scheduled backup.', () => status.lastBytes);
    new Counter({
      name: 'svc_backups_total',
      help: 'Scheduled backups attempted by this process, by result (succeeded, failed).',
      labelNames: ['result'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc({ result: 'succeeded' }, status.succeeded);
        this.inc({ result: 'failed' }, status.failed);
      },
    });
  }

  /** What the rate limiter tells of floods and Redis outages, counted. */
  get rateLimitObserver(): RateLimitObserver {
    return {
      windowDropped: (limit) => this.rateLimitWindowsDropped.inc({ limit }),
      redisFallback: () => this.rateLimitFallbacks.inc(),
    };
  }
}
