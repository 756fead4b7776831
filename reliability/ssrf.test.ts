import { describe, expect, it } from 'vitest';
import { describeResult, runScenario } from './src/scenarios/index.js';

describe('SSRF (bounded)', () => {
  it('refuses webhook targets on loopback, private, link-local and metadata addresses, directly, by name and by redirect', { timeout: 120_000 }, async () => {
    const result = await runScenario('ssrf', 'sqlite', 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
    expect(result.facts['requestsThatReachedTheLoopbackReceiver']).toBe(0);
  });
});
