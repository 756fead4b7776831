import { expect, it } from 'vitest';
import type { BackendName } from '@svc/testkit';
import type { ScenarioResult } from '../src/harness/report.js';
import { describeResult, runScenario, type ScenarioName } from '../src/scenarios/index.js';

/**
 * A test that runs one scenario at its bounded size (`npm run reliability` runs the full
 * size) and expects it to find no problem; `look` sees the result first.
 */
export function itRunsBounded(title: string, scenario: ScenarioName, backend: BackendName, timeout: number, look: (result: ScenarioResult) => void = () => undefined): void {
  it(title, { timeout }, async () => {
    const result = await runScenario(scenario, backend, 'bounded', () => undefined);
    look(result);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });
}
