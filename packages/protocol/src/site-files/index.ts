export * from './skip-rules.js';
export * from './walk-site.js';
