import { randomBytes } from 'node:crypto';
import { createForm, quantiles, runPool } from '@svc/testkit';
import type { ScenarioResult } from '../harness/report.js';
import { withScenario, type ScenarioOptions } from '../harness/scenario.js';

export interface ErasureOptions extends ScenarioOptions {
  /** People whose submissions are erased, and submissions of each. */
  readonly people: number;
  readonly submissionsEach: number;
  /** Submissions posted by others while the erasure runs. */
  readonly load: number;
  readonly concurrency: number;
}

/**
 * Erasure under load: submissions of some people (each with a unique marker in their
 * address) are erased with `svc submissions erase`'s CLI API call while others keep posting.
 * Nothing of an erased person may remain in a table; every submission of anyone else that
 * was acknowledged must still be there; the form endpoint keeps answering 200 meanwhile.
 * Reports the endpoint's latency during the erasure.
 */
export function runErasureScenario(options: ErasureOptions): Promise<ScenarioResult> {
  return withScenario({ name: 'erasure', backend: options.backend, log: options.log }, async ({ store, problems, log, startServer }) => {
    const token = `svc_erasure_${randomBytes(16).toString('hex')}`;
    log(`erasure on ${options.backend}: ${options.people} people × ${options.submissionsEach} submissions erased under ${options.load} others`);
    const server = await startServer({ args: ['--rate-limit', '1000000/1m'], env: { SVC_BOOTSTRAP_TOKEN: token } });
    const form = await createForm(store);
    const url = `${server.url}/api/f/${form.endpointId}`;
    const post = async (fields: Record<string, unknown>): Promise<{ id: string | null; ms: number }> => {
      const begin = performance.now();
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) });
      const body = (await response.json()) as { id?: string };
      if (response.status !== 200) problems.add(`submission answered ${response.status}`);
      return { id: body.id ?? null, ms: performance.now() - begin };
    };
    const people = Array.from({ length: options.people }, (_, index) => `person${index}.${randomBytes(5).toString('hex')}@erase.example`);
    for (const person of people) for (let n = 0; n < options.submissionsEach; n++) await post({ email: person, message: `note ${n} from ${person}` });

    const others: string[] = [];
    const latencies: number[] = [];
    let erasing = true;
    const load = runPool(options.load, options.concurrency, async (n) => {
      const answer = await post({ email: `other${n}@keep.example`, message: 'keep me' });
      if (answer.id !== null) others.push(answer.id);
      if (erasing) latencies.push(answer.ms);
    });
    let erased = 0;
    for (const person of people) {
      const response = await fetch(`${server.url}/api/cli/projects/${form.workspace}/${form.project}/submissions/erase`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: person }),
      });
      const body = (await response.json()) as { erased?: number };
      if (response.status !== 200) problems.add(`erase answered ${response.status}`);
      if (body.erased !== options.submissionsEach) problems.add(`erase of ${person} removed ${body.erased} submissions (expected ${options.submissionsEach})`);
      erased += body.erased ?? 0;
    }
    erasing = false;
    await load;

    for (const person of people) {
      const like = `%${person}%`;
      if ((await store.db.selectFrom('submissions').select('id').where('fields', 'like', like).execute()).length > 0) problems.add(`a submission of ${person} remains`);
      if ((await store.db.selectFrom('events').select('id').where('payload', 'like', like).execute()).length > 0) problems.add(`an event still holds ${person}`);
    }
    const kept = new Set((await store.db.selectFrom('submissions').select('id').execute()).map((row) => row.id));
    for (const id of others) if (!kept.has(id)) problems.add(`acknowledged submission ${id} of someone else is missing`);
    const latency = quantiles(latencies);
    const at = (q: number) => Math.round(latency(q));
    log(`  erased ${erased}; the endpoint answered meanwhile in p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
    return { erased, others: others.length, 'p50 ms during': at(0.5), 'p99 ms during': at(0.99) };
  });
}
