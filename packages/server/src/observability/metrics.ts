import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RateLimitObserver } from '../ratelimit/rate-limiter.js';

/** Prometheus metrics of one server; a registry of its own, so tests can run several. */
export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests answered, by route and status code.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by route.',
    labelNames: ['route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });
  readonly submissions = new Counter({
    name: 'svc_form_submissions_total',
    help: 'Form submissions stored, by state (inbox or spam).',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  readonly submissionBatchSize = new Histogram({
    name: 'svc_submission_batch_size',
    help: 'Submissions committed together in one group commit.',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [this.registry],
  });
  readonly submissionCommitDuration = new Histogram({
    name: 'svc_submission_commit_duration_seconds',
    help: 'Time to commit one group of submissions durably (waiting for the writer included).',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });
  readonly webhookAttempts = new Counter({
    name: 'svc_webhook_attempts_total',
    help: 'Webhook delivery attempts made by this process, by what became of the delivery (succeeded, retrying, failed).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly webhookAttemptDuration = new Histogram({
    name: 'svc_webhook_attempt_duration_seconds',
    help: 'Time from the start of a webhook delivery attempt to the end of its answer.',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly retentionRemoved = new Counter({
    name: 'svc_retention_removed_total',
    help: 'Rows removed by retention, by kind (deliveries, events, spam, submissions).',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly connectionsRefused = new Counter({
    name: 'svc_connections_refused_total',
    help: 'Connections closed on arrival, by limit (total or per_client).',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  readonly rateLimitWindowsDropped = new Counter({
    name: 'svc_rate_limit_windows_dropped_total',
    help: 'Open rate-limit windows dropped to stay within --rate-limit-keys (the least recently counted), by limit (form, cli, auth).',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  readonly rateLimitFallbacks = new Counter({
    name: 'svc_rate_limit_fallbacks_total',
    help: 'Rate-limit counts made in this process because Redis was unreachable or did not answer in time.',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'svc_' });
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

  /** What the rate limiter tells of floods and Redis outages, counted. */
  get rateLimitObserver(): RateLimitObserver {
    return {
      windowDropped: (limit) => this.rateLimitWindowsDropped.inc({ limit }),
      redisFallback: () => this.rateLimitFallbacks.inc(),
    };
  }
}
