import { type BackendName, createBackend, createForm, createWebhook, newEncryptionKey, startReceiver, startSvc, type SvcProcess, type WebhookReceiver } from '@svc/testkit';
import { ProblemList, silentLog, type Log, type ScenarioResult } from '../harness/report.js';

export interface FailingReceiverOptions {
  readonly backend: BackendName;
  /** Submissions posted; each is one event for both receivers. */
  readonly submissions: number;
  readonly concurrency: number;
  readonly log?: Log;
}

/** A share of 4 slots per webhook; an attempt to the hanging receiver ends at the 5 s timeout. */
const perWebhook = 4;
const timeoutMs = 5_000;

/**
 * A failing receiver beside a healthy one: one webhook's receiver never answers, another's
 * answers at once, both subscribed to every event. Every event must reach the healthy
 * receiver exactly once, and the hanging one may never get more than its share of the
 * request slots: before its first attempts time out it receives at most `perWebhook`.
 * Reports how long events took to reach the healthy receiver meanwhile.
 */
export async function runFailingReceiverScenario(options: FailingReceiverOptions): Promise<ScenarioResult> {
  const log = options.log ?? silentLog;
  const started = performance.now();
  const problems = new ProblemList();
  const backend = await createBackend(options.backend);
  const store = await backend.openStore();
  const encryptionKey = newEncryptionKey();
  let server: SvcProcess | null = null;
  let hanging: WebhookReceiver | null = null;
  let healthy: WebhookReceiver | null = null;
  log(`failing receiver on ${options.backend}: ${options.submissions} submissions, one receiver hanging, one healthy`);
  try {
    hanging = await startReceiver(() => ({ hang: true }));
    healthy = await startReceiver();
    server = await startSvc({
      args: [...backend.serverArgs, '--rate-limit', '1000000/1m', '--allow-private-targets', '--retry-schedule', '1h', '--webhook-concurrency', String(perWebhook), '--delivery-timeout', `${timeoutMs}ms`, '--delivery-lease', `${timeoutMs + 2_000}ms`],
      env: { SVC_ENCRYPTION_KEY: encryptionKey },
    });
    const form = await createForm(store);
    for (const receiver of [hanging, healthy]) await createWebhook(store, form, { url: `${receiver.url}/hook`, encryptionKey, dataDir: backend.dataDir, allowPrivateTargets: true });

    const postedAt = new Map<string, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        for (let n = next++; n < options.submissions; n = next++) {
          const response = await fetch(`${server!.url}/api/f/${form.endpointId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
          const body = (await response.json()) as { ok: boolean; id?: string };
          if (response.status !== 200 || !body.id) problems.add(`submission answered ${response.status}`);
          else postedAt.set(body.id, Date.now());
        }
      }),
    );
    const arrived = await healthy.waitFor(postedAt.size, undefined, 120_000).catch(() => healthy!.requests);
    const latencies: number[] = [];
    const seen = new Map<string, number>();
    for (const request of arrived) {
      const submission = (JSON.parse(request.body.toString()) as { data: { submission: { id: string } } }).data.submission.id;
      seen.set(submission, (seen.get(submission) ?? 0) + 1);
      const at = postedAt.get(submission);
      if (at !== undefined) latencies.push(request.receivedAt - at);
    }
    for (const id of postedAt.keys()) if ((seen.get(id) ?? 0) !== 1) problems.add(`the healthy receiver got ${seen.get(id) ?? 0} deliveries of ${id} (expected 1)`);
    const firstHang = hanging.requests[0]?.receivedAt;
    const early = firstHang === undefined ? 0 : hanging.requests.filter((request) => request.receivedAt < firstHang + timeoutMs - 1_000).length;
    if (early > perWebhook) problems.add(`the hanging receiver held ${early} requests at once (its share is ${perWebhook})`);
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    log(`  healthy deliveries p50 ${at(0.5)} ms, p99 ${at(0.99)} ms; the hanging receiver held ${early} at once`);
    return {
      scenario: 'failing-receiver',
      backend: options.backend,
      durationMs: performance.now() - started,
      facts: { submissions: postedAt.size, delivered: arrived.length, 'p50 ms': at(0.5), 'p99 ms': at(0.99), 'hanging held': early },
      problems: problems.list(),
    };
  } finally {
    await hanging?.close();
    await healthy?.close();
    await server?.kill();
    await store.close();
    await backend.cleanup();
  }
}
