import { randomBytes } from 'node:crypto';
import { createBackend, createForm, createWebhook, newEncryptionKey, quantiles, startReceiver, startSvc, type SvcProcess } from '@svc/testkit';
import { jsonBody } from './load-shapes.js';

export interface SettingsPageFigures {
  readonly deliveries: number;
  readonly requests: number;
  /** Time from sending the GET to having the whole page, on a warm server. */
  readonly latencyMs: { readonly p50: number; readonly p99: number };
  readonly bytes: number;
}

/**
 * One webhook's delivery log page (50 deliveries, each with its attempt, request headers and
 * body), requested one at a time on SQLite: the settings area's heaviest page.
 */
export async function benchDeliveryLogPage(requests: number): Promise<SettingsPageFigures> {
  const backend = await createBackend('sqlite');
  const store = await backend.openStore();
  const receiver = await startReceiver({ keepBodies: false });
  const encryptionKey = newEncryptionKey();
  const token = `svc_bench_${randomBytes(16).toString('hex')}`;
  let server: SvcProcess | null = null;
  try {
    const form = await createForm(store);
    const webhook = await createWebhook(store, form, { url: `${receiver.url}/hook`, encryptionKey, dataDir: backend.dataDir, allowPrivateTargets: true });
    server = await startSvc({ args: [...backend.serverArgs, '--allow-private-targets', '--rate-limit', '1000000/1h'], env: { SVC_ENCRYPTION_KEY: encryptionKey, SVC_BOOTSTRAP_TOKEN: token } });
    const deliveries = 60;
    const arrived = receiver.waitFor(deliveries, undefined, 30_000);
    for (let i = 0; i < deliveries; i++) {
      const response = await fetch(`${server.url}/api/f/${form.endpointId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: jsonBody });
      await response.arrayBuffer();
    }
    await arrived;
    const login = await fetch(`${server.url}/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url }, body: new URLSearchParams({ token }).toString() });
    const cookie = login.headers.getSetCookie()[0]?.split(';')[0];
    if (login.status !== 303 || !cookie) throw new Error(`signing in answered ${login.status}`);
    const page = `${server.url}/settings/${form.workspace}/${form.project}/webhooks/${webhook.id}`;
    const times: number[] = [];
    let bytes = 0;
    for (let i = -20; i < requests; i++) {
      const started = performance.now();
      const response = await fetch(page, { headers: { cookie } });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`the delivery log answered ${response.status}`);
      if (i >= 0) times.push(performance.now() - started);
      bytes = Buffer.byteLength(text);
    }
    const at = quantiles(times);
    return { deliveries: 50, requests, latencyMs: { p50: at(0.5), p99: at(0.99) }, bytes };
  } finally {
    await server?.stop();
    await receiver.close();
    await store.close();
    await backend.cleanup();
  }
}
