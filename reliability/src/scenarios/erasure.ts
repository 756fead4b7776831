import { randomBytes } from 'node:crypto';
import { type BackendName, createBackend, createForm, startSvc, type SvcProcess } from '@svc/testkit';
import { ProblemList, silentLog, type Log, type ScenarioResult } from '../harness/report.js';

export interface ErasureOptions {
  readonly backend: BackendName;
  /** People whose submissions are erased, and submissions of each. */
  readonly people: number;
  readonly submissionsEach: number;
  /** Submissions posted by others while the erasure runs. */
  readonly load: number;
  readonly concurrency: number;
  readonly log?: Log;
}

/**
 * Erasure under load: submissions of some people (each with a unique marker in their
 * address) are erased with `svc submissions erase`'s CLI API call while others keep posting.
 * Nothing of an erased person may remain in a table; every submission of anyone else that
 * was acknowledged must still be there; the form endpoint keeps answering 200 meanwhile.
 * Reports the endpoint's latency during the erasure.
 */
export async function runErasureScenario(options: ErasureOptions): Promise<ScenarioResult> {
  const log = options.log ?? silentLog;
  const started = performance.now();
  const problems = new ProblemList();
  const backend = await createBackend(options.backend);
  const store = await backend.openStore();
  const token = `svc_erasure_${randomBytes(16).toString('hex')}`;
  let server: SvcProcess | null = null;
  log(`erasure on ${options.backend}: ${options.people} people × ${options.submissionsEach} submissions erased under ${options.load} others`);
  try {
    server = await startSvc({ args: [...backend.serverArgs, '--rate-limit', '1000000/1m'], env: { SVC_BOOTSTRAP_TOKEN: token } });
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
    let next = 0;
    let erasing = true;
    const load = Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        for (let n = next++; n < options.load; n = next++) {
          const answer = await post({ email: `other${n}@keep.example`, message: 'keep me' });
          if (answer.id !== null) others.push(answer.id);
          if (erasing) latencies.push(answer.ms);
        }
      }),
    );
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
    latencies.sort((a, b) => a - b);
    const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
    log(`  erased ${erased}; the endpoint answered meanwhile in p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
    return {
      scenario: 'erasure',
      backend: options.backend,
      durationMs: performance.now() - started,
      facts: { erased, others: others.length, 'p50 ms during': at(0.5), 'p99 ms during': at(0.99) },
      problems: problems.list(),
    };
  } finally {
    await server?.kill();
    await store.close();
    await backend.cleanup();
  }
}
