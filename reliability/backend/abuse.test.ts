import { describe, expect, it } from 'vitest';
import { selectBackend } from '@svc/testkit';
import { describeResult, runScenario } from '../src/scenarios/index.js';

const backend = await selectBackend();

// Hardening against abuse (docs/server.md, "Limits and timeouts"; bench/README.md shows each
// check failing with the limit it guards turned off).
describe.runIf(backend.available)(`connection floods and large uploads (bounded) on ${backend.name}`, () => {
  it('serves another address throughout a flood of half-open and slow connections from one', { timeout: 120_000 }, async () => {
    const result = await runScenario('connection-flood', backend.name, 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });

  it('streams large uploads to their store: memory grows by far less than the bytes in flight', { timeout: 120_000 }, async () => {
    const result = await runScenario('large-uploads', backend.name, 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });
});
