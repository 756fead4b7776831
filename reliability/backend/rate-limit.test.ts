import { describe, expect, it } from 'vitest';
import { selectBackend } from '@svc/testkit';
import { describeResult, runScenario } from '../src/scenarios/index.js';

const backend = await selectBackend();

// Rate limit: on PostgreSQL + Redis the requests are spread over two instances.
describe.runIf(backend.available)(`rate-limit (bounded) on ${backend.name}`, () => {
  it('accepts exactly 30 requests per client IP and endpoint', { timeout: 180_000 }, async () => {
    const result = await runScenario('rate-limit', backend.name, 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });

  it('answers a new visitor 200 and the 21st wrong token 429 after a flood of addresses, with memory bounded', { timeout: 180_000 }, async () => {
    const result = await runScenario('address-flood', backend.name, 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });
});
