export * from './skip-rules.js';
export * from './walk-site.js';
export * from './hash-file.js';
