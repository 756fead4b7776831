import type { ConfigError, ValidationResult } from './config-error.js';
import { parseJsonDocument } from './json-document.js';
import { checkSchema } from './schema-errors.js';
import { semanticErrors } from './semantic-errors.js';

/**
 * Checks the text of a service.json: strict JSON syntax, then every schema rule and the
 * rules beyond the schema (unique form slugs, hostnames and keys). Returns every error,
 * de-duplicated and sorted by position, or the config when there is none.
 */
export function validate(text: string): ValidationResult {
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) return { ok: false, errors: [parsed.error] };
  const { document } = parsed;
  const schema = checkSchema(document);
  const errors = sortedUnique([...document.duplicateKeys, ...(schema.ok ? [] : schema.errors), ...semanticErrors(document)]);
  if (schema.ok && errors.length === 0) return { ok: true, config: schema.config, errors: [] };
  return { ok: false, errors };
}

function sortedUnique(errors: readonly ConfigError[]): ConfigError[] {
  const unique = new Map<string, ConfigError>();
  for (const error of errors) {
    const key = `${error.pointer}\u0000${error.message}`;
    if (!unique.has(key)) unique.set(key, error);
  }
  // A stable sort: errors at one position keep the schema's order of properties.
  return [...unique.values()].sort((a, b) => a.line - b.line || a.column - b.column);
}
