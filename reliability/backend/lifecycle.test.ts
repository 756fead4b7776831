import { describe } from 'vitest';
import { selectBackend } from '@svc/testkit';
import { itRunsBounded } from './bounded-scenario.js';

const backend = await selectBackend();

// Keeping and erasing data, and delivery beside a failing receiver (docs/privacy.md, docs/webhooks.md).
describe.runIf(backend.available)(`failing receiver and erasure (bounded) on ${backend.name}`, () => {
  itRunsBounded("delivers to the healthy receivers while a hanging one holds at most its project's share", 'failing-receiver', backend.name, 180_000);

  itRunsBounded('erases people under load without touching anyone else', 'erasure', backend.name, 180_000);

  itRunsBounded('removes old spam in the background while the endpoint keeps answering', 'retention', backend.name, 180_000);
});
