import { describe, expect, it } from 'vitest';
import { selectBackend } from '@svc/testkit';
import { describeResult, runScenario } from '../src/scenarios/index.js';

const backend = await selectBackend();

// Deploys from git under load (docs/hosting.md, "Deploys from git"): the full run pushes 30 times under 3,000 submissions.
describe.runIf(backend.available)(`git pushes (bounded) on ${backend.name}`, () => {
  it('ends every push live, failed with a reason or replaced by a newer one, none stuck, while every submission is accepted', { timeout: 240_000 }, async () => {
    const result = await runScenario('git-pushes', backend.name, 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });
});
