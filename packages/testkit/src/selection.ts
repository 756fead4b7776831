import { createBackend, type Backend, type BackendName } from './backend.js';
import { postgresProblem } from './services.js';
import { inCi } from './ci.js';

/**
 * The behaviour suites run once per backend, chosen by SVC_TEST_BACKEND (the Vitest
 * projects `sqlite` and `postgres` set it). PostgreSQL + Redis tests get a fresh database
 * and a Redis key prefix of their own per test file; where those servers do not answer,
 * the suite is skipped with a message, except under CI=true, where that is a failure.
 */
export const backendName: BackendName = process.env['SVC_TEST_BACKEND'] === 'postgres' ? 'postgres' : 'sqlite';

/** A backend of the selected kind for one test file. */
export type TestEnvironment = Backend;


/**
 * Whether this file's suites can run on the selected backend. Call at the top of a
 * behaviour test file: `const backend = await selectBackend(); describe.runIf(backend.available)(…)`.
 */
export async function selectBackend(): Promise<{ available: boolean; name: BackendName }> {
  if (backendName === 'sqlite') return { available: true, name: 'sqlite' };
  const problem = await postgresProblem();
  if (problem === null) return { available: true, name: 'postgres' };
  if (inCi()) throw new Error(`CI=true requires the PostgreSQL + Redis suites to run, but ${problem}`);
  console.warn(`\n  ⚠ skipping the PostgreSQL + Redis suites: ${problem}\n`);
  return { available: false, name: 'postgres' };
}

export function createTestEnvironment(): Promise<TestEnvironment> {
  return createBackend(backendName, 'svctest');
}
