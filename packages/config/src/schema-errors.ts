import type { ErrorObject } from 'ajv';
import type { ConfigError } from './config-error.js';
import { hostnameProblem } from './hostname.js';
import type { JsonDocument } from './json-document.js';
import { childPointer } from './json-pointer.js';
import { schemaValidator } from './schema-validator.js';
import type { ServiceConfig } from './service-config.generated.js';

export type SchemaCheck = { ok: true; config: ServiceConfig } | { ok: false; errors: ConfigError[] };

/** Validates the document against the schema; every error, each worded for a person and placed in the text. */
export function checkSchema(document: JsonDocument): SchemaCheck {
  const validate = schemaValidator();
  const { value } = document;
  if (validate(value)) return { ok: true, config: value };
  const errors = validate.errors ?? [];
  return { ok: false, errors: errors.filter(isInformative(errors)).map((error) => toConfigError(error, document)) };
}

/**
 * Drops errors that only repeat a clearer one at the same value: a string where a number is
 * expected is not also "not one of" an enum; an empty string is not also off the pattern.
 */
function isInformative(errors: readonly ErrorObject[]): (error: ErrorObject) => boolean {
  const pointersWith = (test: (error: ErrorObject) => boolean) => new Set(errors.filter(test).map((error) => error.instancePath));
  // A number with a fraction where an integer is expected can still be out of bounds too.
  const wrongType = pointersWith((error) => error.keyword === 'type' && !(error.params['type'] === 'integer' && typeof error.data === 'number'));
  const empty = pointersWith((error) => error.keyword === 'minLength');
  return (error) =>
    (error.keyword === 'type' || !wrongType.has(error.instancePath)) && !(error.keyword === 'pattern' && empty.has(error.instancePath));
}

function toConfigError(error: ErrorObject, document: JsonDocument): ConfigError {
  const { instancePath: pointer, params } = error;
  if (error.keyword === 'additionalProperties') {
    const name = String(params['additionalProperty']);
    const child = childPointer(pointer, name);
    return { pointer: child, message: `unknown property ${JSON.stringify(name)}`, ...document.positionOf(child, 'key') };
  }
  if (error.keyword === 'required') {
    // Placed at the object that lacks the property.
    return { pointer, message: `missing required property ${JSON.stringify(String(params['missingProperty']))}`, ...document.positionOf(pointer) };
  }
  return { pointer, message: valueMessage(error), ...document.positionOf(pointer) };
}

/** The message for an error about the value itself, in the style "must be >= 60". */
function valueMessage(error: ErrorObject): string {
  const { params, data } = error;
  const schema = error.parentSchema ?? {};
  switch (error.keyword) {
    case 'type':
      return typeMessage(String(params['type']), data);
    case 'enum':
      return `must be one of ${(error.schema as unknown[]).map((option) => JSON.stringify(option)).join(', ')}`;
    case 'minLength':
      return params['limit'] === 1 ? 'must not be empty' : `must be at least ${String(params['limit'])} characters long`;
    case 'maxLength':
    case 'pattern': {
      if (error.schemaPath.startsWith('#/definitions/hostname/') && typeof data === 'string') {
        const problem = hostnameProblem(data);
        if (problem !== undefined) return problem;
      }
      if (error.keyword === 'maxLength') return `must be at most ${String(params['limit'])} characters long`;
      const custom: unknown = schema['patternErrorMessage'];
      return typeof custom === 'string' ? custom : `must match the pattern ${String(params['pattern'])}`;
    }
    case 'format':
      return params['format'] === 'uri' ? 'must be an absolute URI, such as "https://svc.example.com/schema/service.json"' : `must be a valid ${String(params['format'])}`;
    default:
      // minimum and maximum read well as ajv words them: "must be >= 60".
      return error.message ?? `breaks the schema rule "${error.keyword}"`;
  }
}

function typeMessage(expected: string, data: unknown): string {
  const wanted = expected.split(',').map(withArticle).join(' or ');
  if (expected === 'integer' && typeof data === 'number') return `must be an integer, not ${String(data)}`;
  return `must be ${wanted}, not ${describeValue(data)}`;
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describeValue(data: unknown): string {
  if (data === null) return 'null';
  if (Array.isArray(data)) return 'an array';
  if (typeof data === 'number') return `the number ${String(data)}`;
  if (typeof data === 'boolean') return String(data);
  return withArticle(typeof data);
}
