export * from './errors.js';
export * from './events.js';
export * from './audit-actions.js';
export * from './api/limits.js';
export * from './api/paths.js';
export * from './config-values.js';
export * from './format-size.js';
export * from './rate-limit-text.js';
