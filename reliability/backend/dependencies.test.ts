import { describe, expect, it } from 'vitest';
import { inCi, privatePostgresProblem, privateRedisProblem, selectBackend } from '@svc/testkit';
import { describeResult, runScenario } from '../src/scenarios/index.js';

const backend = await selectBackend();

// Riding through dependency failures (docs/server.md, "When a dependency fails";
// bench/README.md shows each scenario failing with the property it guards broken).
// PostgreSQL and Redis here are the scenario's own, never the shared servers.
const ownServers = backend.name === 'postgres' ? (privatePostgresProblem() ?? privateRedisProblem()) : null;
if (backend.available && ownServers !== null) {
  if (inCi()) throw new Error(`CI=true requires the PostgreSQL restart scenario to run: ${ownServers}`);
  console.warn(`⚠ skipping the PostgreSQL restart scenario: ${ownServers}`);
}

describe.runIf(backend.available && backend.name === 'postgres' && ownServers === null)('PostgreSQL restarted under load (bounded)', () => {
  it('stays up, answers 200 or 503, loses and duplicates nothing, and delivers every event', { timeout: 180_000 }, async () => {
    const result = await runScenario('postgres-restart', 'postgres', 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });
});

describe.runIf(backend.available && backend.name === 'sqlite')('SQLite storage failing under load (bounded)', () => {
  it('answers a full disk with 503 and health 503, loses nothing and keeps the database intact', { timeout: 120_000 }, async () => {
    const result = await runScenario('disk-full', 'sqlite', 'bounded', () => undefined);
    if (result.facts['skipped'] !== undefined) console.warn(`⚠ disk full skipped: ${result.facts['skipped']}`);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });

  it('acknowledges nothing into a deleted data directory and says so', { timeout: 120_000 }, async () => {
    const result = await runScenario('data-dir-removed', 'sqlite', 'bounded', () => undefined);
    expect(result.problems, describeResult(result).join('\n')).toEqual([]);
  });
});
