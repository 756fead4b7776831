import { describe, expect, it } from 'vitest';
import { describeResult, runScenario } from './src/scenarios/index.js';

// The bounded copy of `npm run reliability`'s bad-input scenario: 3,000 generated malformed
// requests of every kind (the full run sends 12,000 per backend).
describe('bad input (bounded)', () => {
  it('answers every malformed request with a documented 4xx or a 200, stays up, and stores exactly what it accepted', { timeout: 180_000 }, async () => {
    const result = await runScenario('bad-input', 'sqlite', 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
    expect(result.facts['requests']).toBe(3_000);
  });
});
