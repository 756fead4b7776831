import { ServiceError } from '@svc/protocol';
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

function depthExceeds(root: object, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(value)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
