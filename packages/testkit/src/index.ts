// @svc/testkit: what the tests, the bench and the reliability harness share (docs/architecture.md).
export * from './services.js';
export * from './repo.js';
export * from './backend.js';
export * from './selection.js';
export * from './svc-process.js';
export * from './receiver.js';
export * from './mail-server.js';
export * from './fixtures.js';
export * from './http.js';
export * from './raw-http.js';
export * from './page-session.js';
export * from './browser.js';
export * from './run-svc.js';
export * from './run-svc-on-terminal.js';
export * from './cli-test-server.js';
export * from './private-services.js';
export * from './test-site.js';
