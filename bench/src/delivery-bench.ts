import { type BackendName, createBackend, createForm, createWebhook, newEncryptionKey, quantiles, sampleResident, startReceiver, startSvc, type SvcProcess } from '@svc/testkit';
import { newId } from '@svc/server/testing';
import { sampleCpu } from './cpu-sampler.js';
import type { LoadRunResult } from './load-runner.js';
import { jsonBody, submissionEventPayload } from './load-shapes.js';
import { runLoadProcess, startBenchProcess } from './processes.js';

const deliveryFlags = ['--allow-private-targets', '--rate-limit', '1000000/1h'];
/** svc's default `--webhook-concurrency`: what one worker sends one webhook at once. */
export const defaultWebhookShare = 8;

type Quantiles = { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number };

export interface DeliveryLatencyFigures {
  readonly target: BackendName;
  readonly samples: number;
  /** From sending the POST to the delivery's arrival. */
  readonly latencyMs: Quantiles;
  /** From sending the POST to its answer, in the same samples. */
  readonly answerMs: Quantiles;
  /** The form endpoint's load meanwhile (another form of the same server), if any. */
  readonly load: LoadRunResult | null;
}

function latencyFigures(values: readonly number[]): Quantiles {
  const at = quantiles(values);
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) };
}

/**
 * Submission → first webhook attempt: one submission at a time, from sending the POST to the
 * delivery having fully arrived at a local receiver that answers at once. With `load`, another
 * form of the same server takes the endpoint bench's load meanwhile (autocannon in its own
 * process, `connections` connections; that form has no webhook), and the samples are taken
 * while it runs (at most `samples`).
 */
export async function benchDeliveryLatency(
  kind: BackendName,
  samples: number,
  nodeArgs: readonly string[],
  load: { readonly connections: number; readonly durationSeconds: number } | null = null,
): Promise<DeliveryLatencyFigures> {
  const backend = await createBackend(kind);
  const store = await backend.openStore();
  const receiver = await startReceiver({ keepBodies: false });
  const encryptionKey = newEncryptionKey();
  let server: SvcProcess | null = null;
  try {
    const form = await createForm(store);
    const loaded = await createForm(store);
    await createWebhook(store, form, { url: `${receiver.url}/hook`, encryptionKey, dataDir: backend.dataDir, allowPrivateTargets: true });
    server = await startSvc({ args: [...backend.serverArgs, ...deliveryFlags], env: { SVC_ENCRYPTION_KEY: encryptionKey }, nodeArgs });
    const url = `${server.url}/api/f/${form.endpointId}`;
    const latencies: number[] = [];
    const answers: number[] = [];
    let loading: Promise<LoadRunResult> | null = null;
    let loadOver = false;
    for (let i = -20; i < samples && !loadOver; i++) {
      if (i === 0 && load) {
        loading = runLoadProcess({ url: `${server.url}/api/f/${loaded.endpointId}`, shape: 'json', connections: load.connections, durationSeconds: load.durationSeconds, tag: `l${Date.now().toString(36)}` });
        void loading.finally(() => (loadOver = true));
        // The load generator's start, before sampling.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      const before = receiver.requests.length;
      const arrived = receiver.waitFor(before + 1, undefined, 10_000);
      const sent = performance.now();
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': `lat-${i}` }, body: jsonBody });
      await response.arrayBuffer();
      const answered = performance.now();
      if (response.status !== 200) throw new Error(`submission answered ${response.status}`);
      await arrived;
      if (i >= 0 && !loadOver) {
        latencies.push(receiver.requests[before]!.at - sent);
        answers.push(answered - sent);
      }
    }
    const loadResult = loading ? await loading : null;
    return { target: kind, samples: latencies.length, latencyMs: latencyFigures(latencies), answerMs: latencyFigures(answers), load: loadResult };
  } finally {
    await server?.stop();
    await receiver.close();
    await store.close();
    await backend.cleanup();
  }
}

export interface DeliveryThroughputFigures {
  readonly target: BackendName;
  readonly workers: number;
  readonly events: number;
  readonly deliveriesPerSecond: number;
  /** CPU time of the worker processes from the first arrival to the last, per delivery. */
  readonly cpuUsPerDelivery: number | null;
  /** Requests beyond one per event (at-least-once redeliveries). */
  readonly redeliveries: number;
  readonly peakRssBytes: number | null;
}

/**
 * Delivery throughput: the outbox is filled with `events` events before the servers start,
 * so the run measures fan-out and delivery alone; `workers` processes share the store
 * (PostgreSQL) and deliver to a local receiver that answers 204 at once. Rate = events over
 * the time from the first arrival to the last.
 */
export async function benchDeliveryThroughput(kind: BackendName, events: number, workers: number, nodeArgs: readonly string[]): Promise<DeliveryThroughputFigures> {
  const backend = await createBackend(kind);
  const store = await backend.openStore();
  const receiver = await startReceiver({ keepBodies: false });
  const encryptionKey = newEncryptionKey();
  const servers: SvcProcess[] = [];
  try {
    const form = await createForm(store);
    await createWebhook(store, form, { url: `${receiver.url}/hook`, encryptionKey, dataDir: backend.dataDir, allowPrivateTargets: true });
    const payload = submissionEventPayload(form);
    for (let start = 0; start < events; start += 500) {
      const now = Date.now();
      const rows = Array.from({ length: Math.min(500, events - start) }, () => ({
        id: newId('evt', now),
        project_id: form.projectId,
        type: 'form.submission.created',
        payload,
        created_at: now,
        dispatched_at: null,
      }));
      await store.db.insertInto('events').values(rows).execute();
    }
    const started = await Promise.all(
      Array.from({ length: workers }, () => startSvc({ args: [...backend.serverArgs, ...deliveryFlags, '--role', 'worker'], env: { SVC_ENCRYPTION_KEY: encryptionKey }, nodeArgs })),
    );
    servers.push(...started);
    const sampler = sampleResident(started[0]!.pid);
    const cpu = started.map((server) => sampleCpu(server.pid));
    await receiver.waitFor(events, undefined, 300_000);
    const peakRssBytes = await sampler.stop();
    await Promise.all(cpu.map((one) => one.stop()));
    const first = receiver.requests[0]!.at;
    const last = receiver.requests[events - 1]!.at;
    return {
      target: kind,
      workers,
      events,
      deliveriesPerSecond: (events / (last - first)) * 1000,
      cpuUsPerDelivery: cpuPerDelivery(cpu, receiver.requests, first, last),
      redeliveries: receiver.requests.length - receiver.eventIds.size,
      peakRssBytes,
    };
  } finally {
    for (const server of servers) await server.stop();
    await receiver.close();
    await store.close();
    await backend.cleanup();
  }
}

export interface DeliveryCeilingFigures {
  readonly events: number;
  readonly concurrency: number;
  readonly deliveriesPerSecond: number;
  readonly cpuUsPerDelivery: number | null;
}

/**
 * The ceiling of one webhook's deliveries on this machine: a plain loop in its own process
 * (`delivery-ceiling-process.ts`) that signs and POSTs the same bodies to the same kind of
 * receiver, `concurrency` at a time (a webhook's default share); measured like the worker:
 * events over the time from the first arrival to the last.
 */
export async function benchDeliveryCeiling(events: number, concurrency = defaultWebhookShare): Promise<DeliveryCeilingFigures> {
  const receiver = await startReceiver({ keepBodies: false });
  try {
    const body = submissionEventPayload({ workspace: 'bench', project: 'site', endpointId: 'f_bench00000000000000000000' });
    const loop = await startBenchProcess('./delivery-ceiling-process.js', [receiver.url, 'whsec_benchceilingbenchceilingbenchceilingbenc', String(concurrency), String(events), body]);
    const cpu = sampleCpu(loop.pid);
    await receiver.waitFor(events, undefined, 300_000);
    await cpu.stop();
    await loop.stop();
    const first = receiver.requests[0]!.at;
    const last = receiver.requests[events - 1]!.at;
    return { events, concurrency, deliveriesPerSecond: (events / (last - first)) * 1000, cpuUsPerDelivery: cpuPerDelivery([cpu], receiver.requests, first, last) };
  } finally {
    await receiver.close();
  }
}

/**
 * CPU µs per delivery of the sampled processes, in all, over the part of the run between the
 * first and the last arrival that the samples cover: their CPU there over the arrivals there.
 */
function cpuPerDelivery(samplers: readonly ReturnType<typeof sampleCpu>[], arrivals: readonly { at: number }[], first: number, last: number): number | null {
  const windows = samplers.map((sampler) => sampler.within(first, last));
  if (windows.some((window) => window === null)) return null;
  const from = Math.max(...windows.map((window) => window!.from));
  const to = Math.min(...windows.map((window) => window!.to));
  const arrived = arrivals.filter((request) => request.at >= from && request.at <= to).length;
  // Each process's CPU scaled to the common window.
  const ms = windows.reduce((sum, window) => sum + (window!.ms * (to - from)) / (window!.to - window!.from), 0);
  return arrived === 0 ? null : (ms * 1000) / arrived;
}
