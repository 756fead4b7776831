import { ServiceError } from '@svc/protocol';
import { walkJson } from '../lib/json-walk.js';
import type { FormLimits } from './limits.js';

/**
 * Checks a parsed JSON body: one object mapping field names to values, at most
 * `limits.fields` fields and `limits.jsonDepth` levels deep (deeper values are refused
 * rather than risk exhausting the stack when they are serialised later).
 */
export function fieldsFromJson(body: unknown, limits: FormLimits): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ServiceError('invalid_body', 'the body must be a JSON object mapping field names to values');
  }
  const fields = body as Record<string, unknown>;
  if (Object.keys(fields).length > limits.fields) {
    throw new ServiceError('payload_too_large', `a submission has at most ${limits.fields} fields`);
  }
  if (depthExceeds(fields, limits.jsonDepth)) {
    throw new ServiceError('invalid_body', `values may be nested at most ${limits.jsonDepth} levels deep`);
  }
  return fields;
}

/** Whether a value nests deeper than `maxDepth` levels, the object itself being the first. */
function depthExceeds(root: object, maxDepth: number): boolean {
  return walkJson(root, { container: (_value, at) => (at.depth + 1 > maxDepth ? true : undefined) }) === true;
}
