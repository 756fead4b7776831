import { createForm } from '@svc/testkit';
import type { ScenarioResult } from '../harness/report.js';
import { withScenario, type ScenarioOptions } from '../harness/scenario.js';

export interface RaceOptions extends ScenarioOptions {
  /** Servers sharing the store (more than one needs PostgreSQL). */
  readonly instances: number;
  /** Requests sent at once with one key. */
  readonly concurrency: number;
  /** Rounds, each with a new form and key. */
  readonly rounds: number;
}

/**
 * Races: `concurrency` requests with one idempotency key, all at once (spread over the
 * instances), must make one submission and one event; every answer is a 200 with the same id,
 * and all but one say `idempotent-replayed: true`.
 */
export function runRaceScenario(options: RaceOptions): Promise<ScenarioResult> {
  return withScenario({ name: 'races', backend: options.backend, instances: options.instances, log: options.log }, async ({ store, problems, log, startServers, stopServers }) => {
    log(`races on ${options.backend}: ${options.rounds} rounds of ${options.concurrency} concurrent requests with one key over ${options.instances} instance(s)`);
    const servers = await startServers(options.instances, { args: ['--rate-limit', '1000000/1h'] });
    let answers = 0;
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
    await stopServers();
    log(`  ${answers} answers checked`);
    return { rounds: options.rounds, concurrency: options.concurrency, instances: options.instances, answers };
  });
}
