import { describe, expect, it } from 'vitest';
import type { ServiceError } from '@svc/protocol';
import { isValidEmail } from '../lib/email-address.js';
import { checkFields } from './field-checks.js';
import { fieldsFromJson } from './json-body.js';
import { defaultFormLimits } from './limits.js';
import { cleanFileName } from './multipart-body.js';

describe('the email rule', () => {
  it.each(['a@example.com', 'first.last+tag@sub.example.co.uk', "o'hara@example.ie", 'x@a-b.io'])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });
  it.each(['', 'plain', 'a@b', '@example.com', 'a@', 'a b@example.com', 'a@-example.com', 'a@example-.com', 'a@exa_mple.com', `${'a'.repeat(250)}@example.com`])(
    'refuses %j',
    (email) => expect(isValidEmail(email)).toBe(false),
  );
  it('refuses values that are not strings', () => {
    for (const value of [42, null, true, {}, ['a@example.com']]) expect(isValidEmail(value)).toBe(false);
  });
  it('checks only a field named email, every value when it was sent more than once', () => {
    expect(checkFields({ name: 'x', contact: 'not an email' })).toEqual({});
    expect(checkFields({ email: ['a@example.com', 'b@example.com'] })).toEqual({});
    expect(checkFields({ email: ['a@example.com', 'nope'] })).toEqual({ email: 'must be a valid email address' });
    expect(checkFields({ email: [] })).toEqual({ email: 'must be a valid email address' });
  });
  it('refuses field names over 100 characters, naming each shortened', () => {
    const long = 'n'.repeat(101);
    expect(checkFields({ ['n'.repeat(100)]: 1 })).toEqual({});
    expect(checkFields({ [long]: 1 })).toEqual({ [`${'n'.repeat(100)}…`]: 'field names are at most 100 characters' });
  });
  it('refuses the fields whose numbers would change on storage', () => {
    expect(checkFields({ amount: 1, id: 2 }, ['id'])).toEqual({ id: expect.stringMatching(/^must be a number that can be stored exactly/) });
  });
});

describe('JSON bodies', () => {
  const code = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return (error as ServiceError).code;
    }
    return 'accepted';
  };
  it('accepts an object of fields with nested values', () => {
    expect(fieldsFromJson({ a: 1, b: { c: [1, 2, { d: null }] } }, defaultFormLimits)).toEqual({ a: 1, b: { c: [1, 2, { d: null }] } });
  });
  it('refuses what is not an object with invalid_body', () => {
    for (const body of [null, [], 'x', 3, true, undefined]) expect(code(() => fieldsFromJson(body, defaultFormLimits))).toBe('invalid_body');
  });
  it('refuses more fields than the limit with payload_too_large, and accepts exactly the limit', () => {
    const fields = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, i]));
    expect(code(() => fieldsFromJson(fields(200), defaultFormLimits))).toBe('accepted');
    expect(code(() => fieldsFromJson(fields(201), defaultFormLimits))).toBe('payload_too_large');
  });
  it('refuses values nested deeper than the limit', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 31; i++) deep = [deep];
    expect(code(() => fieldsFromJson({ deep }, defaultFormLimits))).toBe('accepted');
    expect(code(() => fieldsFromJson({ deep: [deep] }, defaultFormLimits))).toBe('invalid_body');
  });
});

describe('client file names', () => {
  it.each([
    ['cv.pdf', 'cv.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\photo.jpg', 'photo.jpg'],
    ['nul\u0000byte.txt', 'nulbyte.txt'],
    ['..', 'file'],
    ['', 'file'],
    ['a/', 'file'],
  ])('cleans %j to %j', (name, cleaned) => expect(cleanFileName(name)).toBe(cleaned));
  it('keeps at most 255 characters', () => expect(cleanFileName('x'.repeat(400))).toHaveLength(255));
});
