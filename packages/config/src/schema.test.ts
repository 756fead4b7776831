import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { schemaPath, serviceSchema } from './schema.js';
import { schemaValidator } from './schema-validator.js';

type SchemaNode = Record<string, unknown>;

/** Every subschema of the schema with its path, the root first. */
function subschemas(node: SchemaNode, path = '#'): [string, SchemaNode][] {
  const found: [string, SchemaNode][] = [[path, node]];
  for (const keyword of ['properties', 'definitions'] as const) {
    const children = (node[keyword] ?? {}) as Record<string, SchemaNode>;
    for (const [name, child] of Object.entries(children)) found.push(...subschemas(child, `${path}/${keyword}/${name}`));
  }
  if (node['items'] !== undefined) found.push(...subschemas(node['items'] as SchemaNode, `${path}/items`));
  return found;
}

const all = subschemas(serviceSchema);
const properties = all.filter(([path]) => /\/properties\/[^/]+$/.test(path));

describe('the service.json schema', () => {
  it('is a valid draft-07 JSON Schema', () => {
    const ajv = new Ajv();
    expect(serviceSchema['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    expect(ajv.validateSchema(serviceSchema), ajv.errorsText(ajv.errors)).toBe(true);
  });

  it('compiles in ajv strict mode', () => {
    expect(() => schemaValidator()).not.toThrow();
  });

  it('names no hosted address: each server serves it at /schema/service.json', () => {
    expect(serviceSchema['$id']).toBeUndefined();
    expect(serviceSchema['title']).toEqual(expect.any(String));
  });

  it('describes every property for people and for VS Code', () => {
    expect(properties.length).toBeGreaterThan(20);
    for (const [path, schema] of properties) {
      expect(schema['description'], path).toEqual(expect.any(String));
      expect(schema['markdownDescription'], path).toEqual(expect.any(String));
    }
  });

  it('describes every definition', () => {
    for (const [path, schema] of all.filter(([path]) => path.includes('/definitions/'))) {
      expect(schema['description'], path).toEqual(expect.any(String));
    }
  });

  it('forbids unknown properties in every object', () => {
    const objects = all.filter(([, schema]) => schema['type'] === 'object');
    expect(objects.length).toBe(7);
    for (const [path, schema] of objects) expect(schema['additionalProperties'], path).toBe(false);
  });

  it('gives every pattern a message for people', () => {
    for (const [path, schema] of all.filter(([, schema]) => schema['pattern'] !== undefined)) {
      expect(schema['patternErrorMessage'], path).toEqual(expect.any(String));
    }
  });

  it('carries the defaults of the specification', () => {
    const defaults = Object.fromEntries(properties.filter(([, schema]) => 'default' in schema).map(([path, schema]) => [path, schema['default']]));
    expect(defaults).toEqual({
      '#/properties/pinpoints/properties/production': false,
      '#/properties/pinpoints/properties/staging': true,
      '#/properties/pinpoints/properties/development': true,
      '#/properties/pinpoints/properties/storeIp': true,
      '#/properties/auto/properties/timeout': 480,
    });
  });

  it('is the file the package exports as ./schema.json', () => {
    const require = createRequire(import.meta.url);
    expect(existsSync(schemaPath)).toBe(true);
    expect(require.resolve('@svc/config/schema.json')).toBe(schemaPath);
  });

  it('cannot be changed by a caller', () => {
    expect(Object.isFrozen(serviceSchema)).toBe(true);
    expect(Object.isFrozen(serviceSchema['properties'])).toBe(true);
  });
});
