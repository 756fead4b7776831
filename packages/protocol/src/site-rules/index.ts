export * from './rule-lines.js';
export * from './path-pattern.js';
export * from './redirects-file.js';
export * from './headers-file.js';
export * from './read-site-rules.js';
