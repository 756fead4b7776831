import { type BackendName, createBackend, createForm, createWebhook, newEncryptionKey, quantiles, sampleResident, startReceiver, startSvc, type SvcProcess } from '@svc/testkit';
import { newId } from '@svc/server/testing';
import { jsonBody, submissionEventPayload } from './load-shapes.js';

const deliveryFlags = ['--allow-private-targets', '--rate-limit', '1000000/1h'];

export interface DeliveryLatencyFigures {
  readonly target: BackendName;
  readonly samples: number;
  readonly latencyMs: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number };
}

/**
 * Submission → first webhook attempt: one submission at a time (nothing else running), from
 * sending the POST to the delivery having fully arrived at a local receiver that answers at once.
 */
export async function benchDeliveryLatency(kind: BackendName, samples: number, nodeArgs: readonly string[]): Promise<DeliveryLatencyFigures> {
  const backend = await createBackend(kind);
  const store = await backend.openStore();
  const receiver = await startReceiver({ keepBodies: false });
  const encryptionKey = newEncryptionKey();
  let server: SvcProcess | null = null;
  try {
    const form = await createForm(store);
    await createWebhook(store, form, { url: `${receiver.url}/hook`, encryptionKey, dataDir: backend.dataDir, allowPrivateTargets: true });
    server = await startSvc({ args: [...backend.serverArgs, ...deliveryFlags], env: { SVC_ENCRYPTION_KEY: encryptionKey }, nodeArgs });
    const url = `${server.url}/api/f/${form.endpointId}`;
    const latencies: number[] = [];
    for (let i = -20; i < samples; i++) {
      const before = receiver.requests.length;
      const arrived = receiver.waitFor(before + 1, undefined, 10_000);
      const sent = performance.now();
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': `lat-${i}` }, body: jsonBody });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`submission answered ${response.status}`);
      await arrived;
      if (i >= 0) latencies.push(receiver.requests[before]!.at - sent);
    }
    const at = quantiles(latencies);
    return { target: kind, samples, latencyMs: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) } };
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
    await receiver.waitFor(events, undefined, 300_000);
    const peakRssBytes = await sampler.stop();
    const first = receiver.requests[0]!.at;
    const last = receiver.requests[events - 1]!.at;
    return { target: kind, workers, events, deliveriesPerSecond: (events / (last - first)) * 1000, redeliveries: receiver.requests.length - receiver.eventIds.size, peakRssBytes };
  } finally {
    for (const server of servers) await server.stop();
    await receiver.close();
    await store.close();
    await backend.cleanup();
  }
}
