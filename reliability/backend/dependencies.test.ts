import { describe } from 'vitest';
import { inCi, privatePostgresProblem, privateRedisProblem, selectBackend } from '@svc/testkit';
import { itRunsBounded } from './bounded-scenario.js';

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
  itRunsBounded('stays up, answers 200 or 503, loses and duplicates nothing, and delivers every event', 'postgres-restart', 'postgres', 180_000);
});

describe.runIf(backend.available && backend.name === 'sqlite')('SQLite storage failing under load (bounded)', () => {
  itRunsBounded('answers a full disk with 503 and health 503, loses nothing and keeps the database intact', 'disk-full', 'sqlite', 120_000, (result) => {
    if (result.facts['skipped'] !== undefined) console.warn(`⚠ disk full skipped: ${result.facts['skipped']}`);
  });

  itRunsBounded('acknowledges nothing into a deleted data directory and says so', 'data-dir-removed', 'sqlite', 120_000);
});
