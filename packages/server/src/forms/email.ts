/**
 * The WHATWG HTML rule for `<input type=email>` (what browsers accept), plus two rules a
 * deliverable internet address also meets: the domain has at least one dot, and the whole
 * address is at most 254 characters (RFC 5321).
 */
const whatwgEmail =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export function isValidEmail(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 254 && whatwgEmail.test(value);
}

export const invalidEmailMessage = 'must be a valid email address';

/**
 * Per-field checks of a submission. The only rule the specification sets is that a field
 * named `email`, when present, holds a valid address (every value, when it was sent more
 * than once). Returns one message per invalid field; empty when all is well.
 */
export function checkFields(fields: Readonly<Record<string, unknown>>): Record<string, string> {
  const errors: Record<string, string> = {};
  if (Object.hasOwn(fields, 'email')) {
    const value = fields['email'];
    const values = Array.isArray(value) ? value : [value];
    if (values.length === 0 || !values.every(isValidEmail)) errors['email'] = invalidEmailMessage;
  }
  return errors;
}
