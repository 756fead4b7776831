import { describe } from 'vitest';
import { selectBackend } from '@svc/testkit';
import { itRunsBounded } from './bounded-scenario.js';

const backend = await selectBackend();

// Issue 41's round trip at its bounded size (npm run reliability runs 2,000 posts): posts
// acknowledged before svc backup began are all restored onto the other backend, with their
// files, and back; the deliveries pending in the archive are delivered; damaged archives
// are refused with nothing written.
describe.runIf(backend.available)(`backup and restore (bounded) from ${backend.name}`, () => {
  itRunsBounded('moves a live store to the other backend and back, losing nothing acknowledged', 'backup-restore', backend.name, 180_000);
});
