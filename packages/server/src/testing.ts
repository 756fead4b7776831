// What the testkit (`@svc/testkit`: tests, bench, reliability harness) builds fixtures
// with, as `@svc/server/testing`. Not for production code.
export { newEndpointId, newId } from './lib/ids.js';
export { insertForm } from './store/queries/forms.js';
export { ensureWorkspace, findProject, insertProject } from './store/queries/projects.js';
export { replaceProjectDomains } from './store/queries/domains.js';
export { insertToken } from './store/queries/tokens.js';
export { generateToken, hashToken } from './auth/token-secrets.js';
export { createWebhook } from './operations/webhooks.js';
export { createOperationContext } from './operations/create-context.js';
export { updateFormSettings } from './operations/forms.js';
export type { Principal } from './auth/principal.js';
export type { OperationContext } from './operations/context.js';
export { serverOptions, type ServerOptions } from './server-options.js';
export { parseEncryptionKey } from './secrets/encryption-key.js';
export type { Store } from './store/store.js';
// The delivery worker's claim path, whose statements the bench explains on both backends (bench/src/delivery-plans.ts).
export { claimWebhookDeliveries, clearLapsedLeases, readyWebhooks } from './store/queries/claim-deliveries.js';
export { nextLeaseEnd } from './store/queries/next-delivery-due.js';
// The HTML snippet the form's settings page shows (tests paste it into a client's page).
export { formSnippet } from './forms/spam/form-snippet.js';
// ALTCHA challenges as the server makes and checks them (the bench times both).
export { AltchaChallenges, altchaKey } from './forms/spam/altcha-challenges.js';
// How builds are held to --build-memory here (the git builds tests look for their cgroups).
export { memoryCapMethod, type MemoryCapMethod, type CgroupLayout } from './builds/runner/memory-cgroup.js';
