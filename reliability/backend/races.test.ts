import { describe } from 'vitest';
import { selectBackend } from '@svc/testkit';
import { itRunsBounded } from './bounded-scenario.js';

const backend = await selectBackend();

// Races: on PostgreSQL the requests are spread over two instances.
describe.runIf(backend.available)(`races (bounded) on ${backend.name}`, () => {
  itRunsBounded('makes one submission and one event from 100 concurrent requests with one key', 'races', backend.name, 180_000);
});
