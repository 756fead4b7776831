import { describe, expect, it } from 'vitest';
import { defaultFormLimits } from './limits.js';
import { fieldsFromUrlencoded } from './urlencoded-body.js';

/** A body as @fastify/formbody's parser leaves it: an object without a prototype, repeated names as lists. */
function parse(text: string): Record<string, unknown> {
  const parsed = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(text)) {
    const existing = parsed[name];
    parsed[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return parsed;
}

describe('the fields of a urlencoded form body', () => {
  it('keeps each field, decoded, and a name sent twice as a list', () => {
    const fields = fieldsFromUrlencoded(parse('name=Ada+Lovelace&email=ada%40example.com&topic=a&topic=b&empty='), defaultFormLimits);
    expect(fields).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', topic: ['a', 'b'], empty: '' });
  });

  it('keeps a field named __proto__ as data, on a plain object', () => {
    const fields = fieldsFromUrlencoded(parse('__proto__=x&name=y'), defaultFormLimits);
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(Object.hasOwn(fields, '__proto__')).toBe(true);
    expect(fields['name']).toBe('y');
  });

  it('counts every pair against the field limit', () => {
    const limits = { ...defaultFormLimits, fields: 3 };
    expect(Object.keys(fieldsFromUrlencoded(parse('a=1&a=2&b=3'), limits))).toEqual(['a', 'b']);
    expect(() => fieldsFromUrlencoded(parse('a=1&a=2&a=3&b=4'), limits)).toThrow(expect.objectContaining({ code: 'payload_too_large' }));
  });
});
