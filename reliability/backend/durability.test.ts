import { execFileSync } from 'node:child_process';
import { describe } from 'vitest';
import { inCi, selectBackend } from '@svc/testkit';
import { itRunsBounded } from './bounded-scenario.js';

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
  if (inCi()) throw new Error(`CI=true requires strace: ${needsStrace}`);
  console.warn(`⚠ skipping the durability check on SQLite: ${needsStrace}`);
}

// Durability: the syncs of 100 submissions posted one at a time, each its own commit, must be
// at least 100 (bench/README.md shows it failing with synchronous=NORMAL or synchronous_commit=off).
describe.runIf(backend.available && needsStrace === null)(`durability (bounded) on ${backend.name}`, () => {
  itRunsBounded('syncs to disk at least once per acknowledged submission', 'durability', backend.name, 60_000);
});
