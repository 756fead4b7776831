import { describe } from 'vitest';
import { selectBackend } from '@svc/testkit';
import { itRunsBounded } from './bounded-scenario.js';

const backend = await selectBackend();

// Crash: 5 kills at random moments under load (the full run: 10 kills, 32 submitters).
describe.runIf(backend.available)(`crash (bounded) on ${backend.name}`, () => {
  itRunsBounded('loses no acknowledged submission and delivers every event across 5 SIGKILLs', 'crash', backend.name, 180_000);
});
