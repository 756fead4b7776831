// Generates src/service-config.generated.ts from schema/service.schema.json, the single
// source of truth for service.json. Run `npm run generate -w @svc/config` after editing the
// schema; src/generated-types.test.ts fails while the committed file is stale.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compile } from 'json-schema-to-typescript';

/** @typedef {import('json-schema-to-typescript').JSONSchema} JSONSchema */

export const schemaFile = fileURLToPath(new URL('../schema/service.schema.json', import.meta.url));
export const generatedFile = fileURLToPath(new URL('../src/service-config.generated.ts', import.meta.url));

const banner = `/*
 * Generated from schema/service.schema.json by scripts/generate-types.mjs: do not edit.
 * Run \`npm run generate -w @svc/config\` after changing the schema.
 */`;

/**
 * Named types come from the schema's definitions (`environment` → `Environment`) and from
 * titles; the root is `ServiceConfig`.
 * @param {unknown} _schema
 * @param {string | undefined} keyNameFromDefinition
 * @returns {string | undefined}
 */
function definitionName(_schema, keyNameFromDefinition) {
  if (keyNameFromDefinition === undefined) return undefined;
  return keyNameFromDefinition.charAt(0).toUpperCase() + keyNameFromDefinition.slice(1);
}

/**
 * Annotations beside a `$ref` (a per-use description for editors) would make the generator
 * emit one copy of the referenced type per use; the types only need the reference.
 * @param {unknown} node
 * @returns {unknown}
 */
function withoutRefSiblings(node) {
  if (Array.isArray(node)) return node.map(withoutRefSiblings);
  if (node === null || typeof node !== 'object') return node;
  const object = /** @type {Record<string, unknown>} */ (node);
  if (typeof object['$ref'] === 'string') return { $ref: object['$ref'] };
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, withoutRefSiblings(value)]));
}

/**
 * The TypeScript source for the schema. The schema object is not modified.
 * @param {object} schema
 * @returns {Promise<string>}
 */
export async function generateTypes(schema) {
  const prepared = /** @type {JSONSchema} */ ({ .../** @type {object} */ (withoutRefSiblings(schema)), title: 'ServiceConfig' });
  return compile(prepared, 'ServiceConfig', {
    bannerComment: banner,
    additionalProperties: false,
    unknownAny: true,
    strictIndexSignatures: true,
    customName: definitionName,
    style: { singleQuote: true, printWidth: 120, trailingComma: 'all', bracketSpacing: true, semi: true },
  });
}

/** @returns {Promise<object>} */
export async function readSchema() {
  /** @type {unknown} */
  const schema = JSON.parse(await readFile(schemaFile, 'utf8'));
  if (schema === null || typeof schema !== 'object') throw new Error(`${schemaFile} does not hold a JSON object`);
  return schema;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeFile(generatedFile, await generateTypes(await readSchema()));
  process.stdout.write(`wrote ${generatedFile}\n`);
}
