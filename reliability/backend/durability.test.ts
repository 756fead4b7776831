import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { selectBackend } from '@svc/testkit';
import { describeResult, runScenario } from '../src/scenarios/index.js';

const backend = await selectBackend();

function straceProblem(): string | null {
  try {
    execFileSync('strace', ['-V'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'strace is not installed (apt-get install strace; .ci/run installs it)';
  }
}

const needsStrace = backend.name === 'sqlite' ? straceProblem() : null;
if (needsStrace !== null) {
  if (['true', '1'].includes((process.env['CI'] ?? '').toLowerCase())) throw new Error(`CI=true requires strace: ${needsStrace}`);
  console.warn(`⚠ skipping the durability check on SQLite: ${needsStrace}`);
}

// Durability: the syncs of 100 submissions posted one at a time, each its own commit, must be
// at least 100 (bench/README.md shows it failing with synchronous=NORMAL or synchronous_commit=off).
describe.runIf(backend.available && needsStrace === null)(`durability (bounded) on ${backend.name}`, () => {
  it('syncs to disk at least once per acknowledged submission', { timeout: 60_000 }, async () => {
    const result = await runScenario('durability', backend.name, 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });
});
