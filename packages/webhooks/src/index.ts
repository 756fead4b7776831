// The package entry for Node.js (and for the monorepo's tests, through the "source"
// condition). Other runtimes get ./web.ts through the "default" condition.
export * from './node.js';
