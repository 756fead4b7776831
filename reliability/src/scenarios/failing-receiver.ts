import { createForm, createWebhook, newEncryptionKey, quantiles, runPool } from '@svc/testkit';
import type { ScenarioResult } from '../harness/report.js';
import { withScenario, type ScenarioOptions } from '../harness/scenario.js';

export interface FailingReceiverOptions extends ScenarioOptions {
  /** Submissions posted; each is one event for both receivers. */
  readonly submissions: number;
  readonly concurrency: number;
}

/** A share of 4 slots per webhook and 6 per project; an attempt to the hanging receiver ends at the 5 s timeout. */
const perWebhook = 4;
const perProject = 6;
/** Webhooks of the first project that point at the hanging receiver. */
const hangingWebhooks = 3;
const timeoutMs = 5_000;

/**
 * A failing receiver beside healthy ones, in two projects: three webhooks of the first
 * project point at a receiver that never answers, a fourth at one that answers at once;
 * the second project's webhook points at another healthy receiver. Every event must reach
 * its project's healthy receiver exactly once, and the hanging receiver may never hold
 * more than the first project's share of the request slots: before its first attempts
 * time out it receives at most `perProject` (each webhook alone could take `perWebhook`).
 * Reports how long events took to reach the healthy receivers meanwhile.
 */
export function runFailingReceiverScenario(options: FailingReceiverOptions): Promise<ScenarioResult> {
  return withScenario({ name: 'failing-receiver', backend: options.backend, log: options.log }, async ({ backend, store, problems, log, startServer, startReceiver }) => {
    const encryptionKey = newEncryptionKey();
    log(`failing receiver on ${options.backend}: ${options.submissions} submissions, one receiver hanging, one healthy`);
    const hanging = await startReceiver(() => ({ hang: true }));
    const healthy = await startReceiver();
    const neighbour = await startReceiver();
    const server = await startServer({
      args: ['--rate-limit', '1000000/1m', '--allow-private-targets', '--retry-schedule', '1h', '--webhook-concurrency', String(perWebhook), '--project-concurrency', String(perProject), '--delivery-timeout', `${timeoutMs}ms`, '--delivery-lease', `${timeoutMs + 2_000}ms`],
      env: { SVC_ENCRYPTION_KEY: encryptionKey },
    });
    const form = await createForm(store);
    const other = await createForm(store);
    const hook = (url: string, target = form) => createWebhook(store, target, { url, encryptionKey, dataDir: backend.dataDir, allowPrivateTargets: true });
    for (let n = 0; n < hangingWebhooks; n++) await hook(`${hanging.url}/hook-${n}`);
    await hook(`${healthy.url}/hook`);
    await hook(`${neighbour.url}/hook`, other);

    const postedAt = new Map<string, number>();
    const otherPostedAt = new Map<string, number>();
    await runPool(options.submissions, options.concurrency, async (n) => {
      // Every third submission goes to the other project.
      const [target, posted] = n % 3 === 2 ? [other, otherPostedAt] : [form, postedAt];
      const response = await fetch(`${server.url}/api/f/${target.endpointId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
      const body = (await response.json()) as { ok: boolean; id?: string };
      if (response.status !== 200 || !body.id) problems.add(`submission answered ${response.status}`);
      else posted.set(body.id, Date.now());
    });
    const neighbourArrived = await neighbour.waitFor(otherPostedAt.size, undefined, 120_000).catch(() => neighbour.requests);
    const arrived = [...(await healthy.waitFor(postedAt.size, undefined, 120_000).catch(() => healthy.requests)), ...neighbourArrived];
    for (const [id, at] of otherPostedAt) postedAt.set(id, at);
    const latencies: number[] = [];
    const otherLatencies: number[] = [];
    const seen = new Map<string, number>();
    for (const request of arrived) {
      const submission = (JSON.parse(request.body.toString()) as { data: { submission: { id: string } } }).data.submission.id;
      seen.set(submission, (seen.get(submission) ?? 0) + 1);
      const at = postedAt.get(submission);
      if (at !== undefined) (otherPostedAt.has(submission) ? otherLatencies : latencies).push(request.receivedAt - at);
    }
    for (const id of postedAt.keys()) if ((seen.get(id) ?? 0) !== 1) problems.add(`the healthy receivers got ${seen.get(id) ?? 0} deliveries of ${id} (expected 1)`);
    const firstHang = hanging.requests[0]?.receivedAt;
    const early = firstHang === undefined ? 0 : hanging.requests.filter((request) => request.receivedAt < firstHang + timeoutMs - 1_000).length;
    if (early > perProject) problems.add(`the hanging receiver held ${early} requests at once (its project's share is ${perProject})`);
    const at = quantiles(latencies);
    const otherAt = quantiles(otherLatencies);
    log(`  healthy deliveries of the hanging receivers' project p50 ${at(0.5)} ms, p99 ${at(0.99)} ms; of the other project p50 ${otherAt(0.5)} ms, p99 ${otherAt(0.99)} ms; the hanging receiver held ${early} at once`);
    return { submissions: postedAt.size, delivered: arrived.length, 'same project p50 ms': at(0.5), 'same project p99 ms': at(0.99), 'other project p50 ms': otherAt(0.5), 'other project p99 ms': otherAt(0.99), 'hanging held': early };
  });
}
