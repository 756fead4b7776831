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
