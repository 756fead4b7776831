import { createHash, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../lib/ids.js';

/** Tokens are `svc_` and 256 random bits; only their SHA-256 is stored. */
export const tokenPrefix = 'svc_';

export function generateToken(): string {
  return `${tokenPrefix}${randomToken(256)}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
