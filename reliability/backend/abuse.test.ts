import { describe } from 'vitest';
import { selectBackend } from '@svc/testkit';
import { itRunsBounded } from './bounded-scenario.js';

const backend = await selectBackend();

// Hardening against abuse (docs/server.md, "Limits and timeouts"; bench/README.md shows each
// check failing with the limit it guards turned off).
describe.runIf(backend.available)(`connection floods and large uploads (bounded) on ${backend.name}`, () => {
  itRunsBounded('serves another address throughout a flood of half-open and slow connections from one', 'connection-flood', backend.name, 120_000);

  itRunsBounded('streams large uploads to their store: memory grows by far less than the bytes in flight', 'large-uploads', backend.name, 120_000);
});
