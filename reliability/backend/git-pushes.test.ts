import { describe } from 'vitest';
import { selectBackend } from '@svc/testkit';
import { itRunsBounded } from './bounded-scenario.js';

const backend = await selectBackend();

// Deploys from git under load (docs/hosting.md, "Deploys from git"): the full run pushes 30 times under 3,000 submissions.
describe.runIf(backend.available)(`git pushes (bounded) on ${backend.name}`, () => {
  itRunsBounded('ends every push live, failed with a reason or replaced by a newer one, none stuck, while every submission is accepted', 'git-pushes', backend.name, 240_000);
});
