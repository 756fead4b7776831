import { createForm, runPool } from '@svc/testkit';
import type { ScenarioResult } from '../harness/report.js';
import { limiterFigures } from '../harness/limiter-figures.js';
import { withScenario, type ScenarioOptions } from '../harness/scenario.js';

export interface RateLimitOptions extends ScenarioOptions {
  /** Servers sharing the store and Redis (more than one needs PostgreSQL + Redis). */
  readonly instances: number;
  /**
   * Client IPs (the right-most x-forwarded-for entry, as the one trusted proxy adds it; most
   * requests also carry entries the client wrote in front, to escape its limit).
   */
  readonly clients: number;
  readonly endpoints: number;
  /** Requests per client IP and endpoint; more than the limit of 30. */
  readonly requestsPerPair: number;
  /** Requests in flight at once, over all pairs and instances. */
  readonly concurrency: number;
}

const limit = 30;

/**
 * Rate limit: with the default policy (30 per 5 minutes per IP per endpoint), requests from
 * several client IPs to several endpoints, interleaved over the instances, are accepted exactly
 * 30 times per (IP, endpoint) (more only by what an instance counted alone while a Redis
 * call timed out, as `svc_rate_limit_fallbacks_total` reports); every other answer is a 429
 * with `retryAfter` and `retry-after`, and one submission is stored per 200. Most requests write spoofed
 * entries in front of x-forwarded-for (a fresh random address, several, or text that is
 * not an address), as a client behind the proxy can: none of them may count.
 */
export function runRateLimitScenario(options: RateLimitOptions): Promise<ScenarioResult> {
  return withScenario({ name: 'rate-limit', backend: options.backend, instances: options.instances, log: options.log }, async ({ store, problems, log, startServers, stopServers }) => {
    log(`rate limit on ${options.backend}: ${options.clients} IPs × ${options.endpoints} endpoints × ${options.requestsPerPair} requests over ${options.instances} instance(s)`);
    const servers = await startServers(options.instances, { args: ['--trust-proxy', '--form-ip', 'full'] });
    const forms = await Promise.all(Array.from({ length: options.endpoints }, () => createForm(store)));
    const jobs: { client: string; form: (typeof forms)[number]; n: number }[] = [];
    for (let c = 0; c < options.clients; c++) {
      for (const form of forms) for (let n = 0; n < options.requestsPerPair; n++) jobs.push({ client: `198.51.100.${c + 1}`, form, n });
    }
    // Interleave pairs so that every pair's requests race each other and both instances.
    jobs.sort(() => Math.random() - 0.5);
    const accepted = new Map<string, number>();
    const refused = new Map<string, number>();
    let sent = 0;
    await runPool(jobs.length, options.concurrency, async (index) => {
      const job = jobs[index]!;
      const server = servers[sent++ % servers.length]!;
      const pair = `${job.client}|${job.form.formId}`;
      const response = await fetch(`${server.url}/api/f/${job.form.endpointId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': spoofed(job.client) },
        body: JSON.stringify({ n: job.n }),
      });
      const text = await response.text();
      if (!/^"form";r=\d+;t=\d+$/.test(response.headers.get('ratelimit') ?? '')) problems.add(`answer without a valid RateLimit field: ${response.headers.get('ratelimit')}`);
      if (response.status === 200) {
        accepted.set(pair, (accepted.get(pair) ?? 0) + 1);
      } else if (response.status === 429) {
        refused.set(pair, (refused.get(pair) ?? 0) + 1);
        const body = JSON.parse(text) as { ok: boolean; error: string; retryAfter: number };
        const header = Number(response.headers.get('retry-after'));
        if (body.ok !== false || body.error !== 'rate_limited' || !(body.retryAfter >= 1 && body.retryAfter <= 300) || header !== body.retryAfter) {
          problems.add(`malformed 429: ${text} retry-after ${response.headers.get('retry-after')}`);
        }
      } else {
        problems.add(`answer ${response.status} ${text.slice(0, 200)}`);
      }
    });
    // A Redis call slower than its timeout is counted by the instance's own fallback, from
    // zero (docs/server.md): each such count may let one more through, and no other may.
    let fallbacks = 0;
    for (const server of servers) fallbacks += (await limiterFigures(server.url)).fallbacks;
    let excess = 0;
    for (let c = 0; c < options.clients; c++) {
      for (const form of forms) {
        const client = `198.51.100.${c + 1}`;
        const pair = `${client}|${form.formId}`;
        const ok = accepted.get(pair) ?? 0;
        excess += Math.max(0, ok - limit);
        if (ok < limit || ok > limit + fallbacks) problems.add(`${client} on ${form.endpointId}: ${ok} accepted (expected exactly ${limit}, more only by counts made without Redis: ${fallbacks})`);
        const rows = await store.db.selectFrom('submissions').select('id').where('form_id', '=', form.formId).where('client_ip', '=', client).execute();
        if (rows.length !== ok) problems.add(`${client} on ${form.endpointId}: ${rows.length} submissions stored for ${ok} accepted`);
      }
    }
    if (excess > fallbacks) problems.add(`${excess} accepted past the limit in all, with ${fallbacks} counts made without Redis`);
    await stopServers();
    const total = (map: Map<string, number>): number => [...map.values()].reduce((sum, count) => sum + count, 0);
    log(`  ${total(accepted)} accepted, ${total(refused)} refused with 429`);
    return { requests: jobs.length, pairs: options.clients * options.endpoints, accepted: total(accepted), refused: total(refused), redisFallbacks: fallbacks };
  });
}

/** What a client behind the proxy can send: anything in front of the entry the proxy appends. */
function spoofed(client: string): string {
  const random = () => `${1 + Math.floor(Math.random() * 222)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
  const roll = Math.random();
  if (roll < 0.2) return client;
  if (roll < 0.6) return `${random()}, ${client}`;
  if (roll < 0.8) return `${random()}, ${random()}, ${random()}, ${client}`;
  return `not-an-ip-${Math.random().toString(36).slice(2)}, ${client}`;
}
