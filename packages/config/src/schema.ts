import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Absolute path of schema/service.schema.json, for the server to serve at GET /schema/service.json. */
export const schemaPath: string = require.resolve('../schema/service.schema.json');

/**
 * The JSON Schema (draft-07) of service.json: the single source of truth for its rules,
 * defaults, types and editor support. Frozen, so no caller can change what validate() checks.
 * Loaded with require() so that Node 20 prints no JSON-module warning.
 */
export const serviceSchema: Readonly<Record<string, unknown>> = deepFreeze(require(schemaPath) as Record<string, unknown>);

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
