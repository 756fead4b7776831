import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SvcProcess, WebhookReceiver } from '@svc/testkit';
import { ScenarioSkipped, withScenario } from './src/harness/scenario.js';

describe('the scenario harness', () => {
  it('tears down what a scenario started, last first, even when it throws', { timeout: 60_000 }, async () => {
    let server: SvcProcess | undefined;
    let receiver: WebhookReceiver | undefined;
    let dataDir = '';
    const order: string[] = [];
    const run = withScenario({ name: 'teardown', backend: 'sqlite' }, async ({ backend, startServer, startReceiver, defer }) => {
      dataDir = backend.dataDir;
      defer(() => order.push('first deferred'));
      receiver = await startReceiver();
      server = await startServer();
      defer(() => order.push(`last deferred, server ${server!.alive() ? 'running' : 'gone'}`));
      throw new Error('the body failed');
    });
    await expect(run).rejects.toThrow('the body failed');
    expect(order).toEqual(['last deferred, server running', 'first deferred']);
    expect(server!.alive()).toBe(false);
    await expect(fetch(receiver!.url)).rejects.toThrow();
    expect(existsSync(dataDir)).toBe(false);
  });

  it('returns the facts and problems of the body, and stops the servers it did not end itself', { timeout: 60_000 }, async () => {
    const result = await withScenario({ name: 'servers', backend: 'sqlite', instances: 2 }, async ({ problems, facts, startServers, stopServers }) => {
      const [killed, running] = await startServers(2);
      await killed!.kill();
      facts['noted'] = 'early';
      problems.add('a finding');
      await stopServers();
      return { running: running!.alive() ? 'yes' : 'no' };
    });
    expect(result).toMatchObject({ scenario: 'servers', backend: 'sqlite × 2', facts: { noted: 'early', running: 'no' }, problems: ['a finding'] });
  });

  it('reports an error as a problem in report mode, keeping the facts found before it', async () => {
    const result = await withScenario({ name: 'outage', backend: 'sqlite', errors: 'report' }, ({ facts }) => {
      facts['before'] = 1;
      return Promise.reject(new Error('the dependency never came back'));
    });
    expect(result.facts).toEqual({ before: 1 });
    expect(result.problems).toEqual([expect.stringContaining('the scenario failed: Error: the dependency never came back')]);
  });

  it('passes a scenario that cannot run here, saying why, and removes what its backend made', async () => {
    const logged: string[] = [];
    let removed = false;
    const result = await withScenario(
      {
        name: 'skipped',
        backend: 'sqlite',
        log: (line) => logged.push(line),
        make: (defer) => {
          defer(() => (removed = true));
          throw new ScenarioSkipped('no tmpfs here', '⚠ skipping: cannot mount');
        },
      },
      () => Promise.reject(new Error('the body does not run')),
    );
    expect(result).toMatchObject({ facts: { skipped: 'no tmpfs here' }, problems: [] });
    expect(logged).toEqual(['⚠ skipping: cannot mount']);
    expect(removed).toBe(true);
  });
});
