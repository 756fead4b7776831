import { type BackendName, createBackend, createForm, startSvc, type SvcProcess } from '@svc/testkit';
import { ProblemList, silentLog, type Log, type ScenarioResult } from '../harness/report.js';

export interface RaceOptions {
  readonly backend: BackendName;
  /** Servers sharing the store (more than one needs PostgreSQL). */
  readonly instances: number;
  /** Requests sent at once with one key. */
  readonly concurrency: number;
  /** Rounds, each with a new form and key. */
  readonly rounds: number;
  readonly log?: Log;
}

/**
 * Races: `concurrency` requests with one idempotency key, all at once (spread over the
 * instances), must make one submission and one event; every answer is a 200 with the same id,
 * and all but one say `idempotent-replayed: true`.
 */
export async function runRaceScenario(options: RaceOptions): Promise<ScenarioResult> {
  const log = options.log ?? silentLog;
  const started = performance.now();
  const problems = new ProblemList();
  const backend = await createBackend(options.backend);
  const store = await backend.openStore();
  const servers: SvcProcess[] = [];
  let answers = 0;
  log(`races on ${options.backend}: ${options.rounds} rounds of ${options.concurrency} concurrent requests with one key over ${options.instances} instance(s)`);
  try {
    servers.push(...(await Promise.all(Array.from({ length: options.instances }, () => startSvc({ args: [...backend.serverArgs, '--rate-limit', '1000000/1h'] })))));
    for (let round = 0; round < options.rounds; round++) {
      const form = await createForm(store);
      const key = `race-${round}-${crypto.randomUUID()}`;
      const responses = await Promise.all(
        Array.from({ length: options.concurrency }, async (_, i) => {
          const server = servers[i % servers.length]!;
          const response = await fetch(`${server.url}/api/f/${form.endpointId}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'idempotency-key': key },
            body: JSON.stringify({ attempt: i, email: 'race@example.com' }),
          });
          return { status: response.status, replayed: response.headers.get('idempotent-replayed') === 'true', text: await response.text() };
        }),
      );
      answers += responses.length;
      const ids = new Set<string>();
      for (const response of responses) {
        if (response.status !== 200) problems.add(`round ${round}: answer ${response.status} ${response.text.slice(0, 200)}`);
        else ids.add((JSON.parse(response.text) as { id: string }).id);
      }
      const fresh = responses.filter((response) => response.status === 200 && !response.replayed).length;
      if (ids.size !== 1) problems.add(`round ${round}: ${ids.size} different ids answered for one key`);
      if (fresh !== 1) problems.add(`round ${round}: ${fresh} answers were not marked as replays (expected exactly 1)`);
      const submissions = await store.db.selectFrom('submissions').select('id').where('form_id', '=', form.formId).execute();
      const events = await store.db.selectFrom('events').select('id').where('project_id', '=', form.projectId).execute();
      if (submissions.length !== 1) problems.add(`round ${round}: DUPLICATE: ${submissions.length} submissions stored for one key`);
      if (events.length !== 1) problems.add(`round ${round}: ${events.length} events stored for one key`);
      if (submissions[0] && !ids.has(submissions[0].id)) problems.add(`round ${round}: the stored submission ${submissions[0].id} is not the one answered`);
    }
    for (const server of servers.splice(0)) {
      const exit = await server.stop();
      if (exit !== 0) problems.add(`a server exited with ${exit} on SIGTERM`);
    }
    log(`  ${answers} answers checked`);
    return { scenario: 'races', backend: `${options.backend} × ${options.instances}`, durationMs: performance.now() - started, facts: { rounds: options.rounds, concurrency: options.concurrency, instances: options.instances, answers }, problems: problems.list() };
  } finally {
    for (const server of servers) await server.kill();
    await store.close();
    await backend.cleanup();
  }
}
