export * from './errors.js';
export * from './events.js';
