import { timingSafeEqual } from 'node:crypto';

/** Whether `given` is the text `expected`, compared in constant time (a CSRF token, a signature). */
export function tokensEqual(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const left = Buffer.from(expected, 'utf8');
  const right = Buffer.from(given, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
