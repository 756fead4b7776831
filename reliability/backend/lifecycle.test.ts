import { describe, expect, it } from 'vitest';
import { selectBackend } from '@svc/testkit';
import { describeResult, runScenario } from '../src/scenarios/index.js';

const backend = await selectBackend();

// Keeping and erasing data, and delivery beside a failing receiver (docs/privacy.md, docs/webhooks.md).
describe.runIf(backend.available)(`failing receiver and erasure (bounded) on ${backend.name}`, () => {
  it("delivers to the healthy receivers while a hanging one holds at most its project's share", { timeout: 180_000 }, async () => {
    const result = await runScenario('failing-receiver', backend.name, 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });

  it('erases people under load without touching anyone else', { timeout: 180_000 }, async () => {
    const result = await runScenario('erasure', backend.name, 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });

  it('removes old spam in the background while the endpoint keeps answering', { timeout: 180_000 }, async () => {
    const result = await runScenario('retention', backend.name, 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });
});
