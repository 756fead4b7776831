import { createForm, quantiles, runPool } from '@svc/testkit';
import type { ScenarioResult } from '../harness/report.js';
import { withScenario, type ScenarioOptions } from '../harness/scenario.js';

export interface RetentionOptions extends ScenarioOptions {
  /** Spam submissions made old, for retention to remove. */
  readonly old: number;
  /** Submissions posted while they are removed. */
  readonly load: number;
  readonly concurrency: number;
}

/**
 * Retention under load: many spam submissions are made older than the spam retention (their
 * times moved back; nothing waits), then the retention job removes them in batches while 16
 * clients keep posting. Every old spam submission must go, every acknowledged submission
 * must stay, and every post must answer 200. Reports the endpoint's latency meanwhile.
 */
export function runRetentionScenario(options: RetentionOptions): Promise<ScenarioResult> {
  return withScenario({ name: 'retention', backend: options.backend, log: options.log }, async ({ store, problems, log, startServer }) => {
    log(`retention on ${options.backend}: ${options.old} old spam submissions removed under ${options.load} new ones`);
    const server = await startServer({ args: ['--rate-limit', '1000000/1m', '--maintenance-interval', '250ms', '--retention-spam', '7d'] });
    const form = await createForm(store);
    const url = `${server.url}/api/f/${form.endpointId}`;
    const post = async (fields: Record<string, unknown>, spam: boolean): Promise<{ id: string | null; ms: number }> => {
      const begin = performance.now();
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(spam ? { 'x-service-honeypot': '1' } : {}) }, body: JSON.stringify(fields) });
      const body = (await response.json()) as { id?: string };
      if (response.status !== 200) problems.add(`submission answered ${response.status}`);
      return { id: body.id ?? null, ms: performance.now() - begin };
    };
    await runPool(options.old, options.concurrency, async (n) => {
      await post({ n, old: true }, true);
    });
    const aged = await store.db.updateTable('submissions').set({ created_at: Date.now() - 30 * 86_400_000 }).where('form_id', '=', form.formId).where('state', '=', 'spam').executeTakeFirst();
    log(`  ${Number(aged.numUpdatedRows)} spam submissions made 30 days old`);
    if (Number(aged.numUpdatedRows) !== options.old) problems.add(`${Number(aged.numUpdatedRows)} spam submissions stored (expected ${options.old})`);

    const kept: string[] = [];
    const latencies: number[] = [];
    const removal = (async () => {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const left = await store.db.selectFrom('submissions').select('id').where('form_id', '=', form.formId).where('state', '=', 'spam').limit(1).execute();
        if (left.length === 0) return true;
        if (Date.now() > deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await runPool(options.load, options.concurrency, async (n) => {
      const answer = await post({ n, keep: true }, false);
      if (answer.id !== null) kept.push(answer.id);
      latencies.push(answer.ms);
    });
    if (!(await removal)) problems.add('old spam was still there two minutes later');
    const present = new Set((await store.db.selectFrom('submissions').select('id').where('form_id', '=', form.formId).execute()).map((row) => row.id));
    for (const id of kept) if (!present.has(id)) problems.add(`acknowledged submission ${id} is missing`);
    const latency = quantiles(latencies);
    const at = (q: number) => Math.round(latency(q));
    log(`  the endpoint answered meanwhile in p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
    return { removed: Number(aged.numUpdatedRows), posted: kept.length, 'p50 ms during': at(0.5), 'p99 ms during': at(0.99) };
  });
}
