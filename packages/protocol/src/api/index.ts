export * from './check.js';
export * from './common.js';
export * from './deliveries.js';
export * from './forms.js';
export * from './projects.js';
export * from './submissions.js';
export * from './tokens.js';
export * from './webhooks.js';
