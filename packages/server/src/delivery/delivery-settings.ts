import { responseBodyLimitBytes } from './response-body.js';
import { retryPolicy, type RetryPolicy } from './retry-policy.js';

/** How the delivery worker and `webhooks test` send, resolved from the server options. */
export interface DeliverySettings {
  readonly policy: RetryPolicy;
  /** One attempt, from connecting to the end of the answer (docs/webhooks.md: 10 s). */
  readonly timeoutMs: number;
  /** How long a claimed delivery stays with its worker; a dead worker's deliveries are claimed again after it. */
  readonly leaseMs: number;
  /** The safety-net poll: wake-ups normally come from new events and known retry times. */
  readonly pollIntervalMs: number;
  /** Requests in flight at once, per process. */
  readonly concurrency: number;
  /** Deliveries one webhook may have in flight (and waiting) at once, per process. */
  readonly perWebhook: number;
  /** Deliveries the webhooks of one project may have in flight (and waiting) at once, per process. */
  readonly perProject: number;
  readonly allowPrivateTargets: boolean;
  readonly responseBodyLimitBytes: number;
  /** Events fanned out per transaction. */
  readonly eventBatch: number;
}

/** A worker must be able to finish an attempt and record it well within its lease. */
export const minLeaseMarginMs = 1_000;

/** What `svc serve` is told about webhook delivery (docs/server.md), before it is checked and resolved. */
export interface DeliveryOptions {
  /** Delays between delivery attempts, in milliseconds; undefined keeps the default. */
  readonly retrySchedule: readonly number[] | undefined;
  /** One delivery attempt, from connecting to the end of the answer. */
  readonly deliveryTimeoutMs: number;
  /** How long a claimed delivery stays with its worker; at least the timeout + 1 s. */
  readonly deliveryLeaseMs: number;
  /** The delivery worker's safety-net poll (wake-ups normally come from events and timers). */
  readonly deliveryPollIntervalMs: number;
  /** Delivery requests in flight at once, per process. */
  readonly deliveryConcurrency: number;
  /** Of those, how many one webhook may have (docs/webhooks.md). */
  readonly webhookConcurrency: number;
  /** Of those, how many the webhooks of one project may have together. */
  readonly projectConcurrency: number;
  /** Whether webhooks may reach private, loopback and other refused addresses (`--allow-private-targets`, net/address-policy.ts). */
  readonly allowPrivateTargets: boolean;
}

/** @throws {Error} when the options contradict each other (a lease shorter than an attempt). */
export function deliverySettings(options: DeliveryOptions): DeliverySettings {
  const { deliveryTimeoutMs: timeoutMs, deliveryLeaseMs: leaseMs, deliveryPollIntervalMs: pollIntervalMs, deliveryConcurrency: concurrency } = options;
  if (!(timeoutMs >= 1)) throw new Error('the delivery timeout must be at least 1 ms');
  if (!(leaseMs >= timeoutMs + minLeaseMarginMs)) {
    throw new Error(`the delivery lease (${leaseMs} ms) must exceed the delivery timeout (${timeoutMs} ms) by at least ${minLeaseMarginMs} ms`);
  }
  if (!(pollIntervalMs >= 10)) throw new Error('the delivery poll interval must be at least 10 ms');
  if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 10_000) throw new Error('the delivery concurrency must be a whole number from 1 to 10000');
  return {
    policy: retryPolicy(options.retrySchedule),
    timeoutMs,
    leaseMs,
    pollIntervalMs,
    concurrency,
    perWebhook: Math.min(options.webhookConcurrency, concurrency),
    perProject: Math.min(options.projectConcurrency, concurrency),
    allowPrivateTargets: options.allowPrivateTargets,
    responseBodyLimitBytes,
    eventBatch: 200,
  };
}
