import { describe } from 'vitest';
import { selectBackend } from '@svc/testkit';
import { itRunsBounded } from './bounded-scenario.js';

const backend = await selectBackend();

// Rate limit: on PostgreSQL + Redis the requests are spread over two instances.
describe.runIf(backend.available)(`rate-limit (bounded) on ${backend.name}`, () => {
  itRunsBounded('accepts exactly 30 requests per client IP and endpoint', 'rate-limit', backend.name, 180_000);

  itRunsBounded('answers a new visitor 200 and the 21st wrong token 429 after a flood of addresses, with memory bounded', 'address-flood', backend.name, 180_000);
});
