import { describe, expect, it } from 'vitest';
import { selectBackend } from '@svc/testkit';
import { describeResult, runScenario } from '../src/scenarios/index.js';

const backend = await selectBackend();

// Crash: 5 kills at random moments under load (the full run: 10 kills, 32 submitters).
describe.runIf(backend.available)(`crash (bounded) on ${backend.name}`, () => {
  it('loses no acknowledged submission and delivers every event across 5 SIGKILLs', { timeout: 180_000 }, async () => {
    const result = await runScenario('crash', backend.name, 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });
});
