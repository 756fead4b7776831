import { ServiceError } from '@svc/protocol';
import type { FormLimits } from './limits.js';

/** The content type a browser's `<form method="post">` sends when it names no `enctype`. */
export const urlencodedType = 'application/x-www-form-urlencoded';

/**
 * The fields of an `application/x-www-form-urlencoded` body, as @fastify/formbody parsed
 * it: like multipart without files, a name sent twice becomes a list, and a body has at
 * most `limits.fields` fields (each name=value pair counts, as each multipart part does).
 */
export function fieldsFromUrlencoded(body: unknown, limits: FormLimits): Record<string, unknown> {
  if (body === null || typeof body !== 'object') throw new ServiceError('invalid_body', 'the body is not a urlencoded form');
  const fields = Object.fromEntries(Object.entries(body));
  const pairs = Object.values(fields).reduce<number>((count, value) => count + (Array.isArray(value) ? value.length : 1), 0);
  if (pairs > limits.fields) throw new ServiceError('payload_too_large', `a submission has at most ${limits.fields} fields`);
  return fields;
}
