import { describe, expect, it } from 'vitest';
import { selectBackend } from '@svc/testkit';
import { describeResult, runScenario } from '../src/scenarios/index.js';

const backend = await selectBackend();

// Races: on PostgreSQL the requests are spread over two instances.
describe.runIf(backend.available)(`races (bounded) on ${backend.name}`, () => {
  it('makes one submission and one event from 100 concurrent requests with one key', { timeout: 180_000 }, async () => {
    const result = await runScenario('races', backend.name, 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });
});
