import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox, SecretBoxError, keyIdOf } from './secret-box.js';

const key = randomBytes(32);
const box = new SecretBox(key);

function failure(run: () => unknown): SecretBoxError {
  try {
    run();
  } catch (error) {
    if (error instanceof SecretBoxError) return error;
    throw error;
  }
  throw new Error('expected a SecretBoxError');
}

describe('SecretBox', () => {
  it('round-trips a secret and never stores it in clear', () => {
    const sealed = box.seal('whsec_abc', 'webhook-secret:wh_1');
    expect(sealed).not.toContain('whsec_abc');
    expect(sealed.startsWith(`enc1.${box.keyId}.`)).toBe(true);
    expect(box.open(sealed, 'webhook-secret:wh_1')).toBe('whsec_abc');
  });

  it('uses a fresh IV every time', () => {
    expect(box.seal('same', 'c')).not.toBe(box.seal('same', 'c'));
  });

  it('tells a value sealed with another key apart, naming that key', () => {
    const other = new SecretBox(randomBytes(32));
    const error = failure(() => box.open(other.seal('whsec_abc', 'c'), 'c'));
    expect(error.code).toBe('wrong_key');
    expect(error.sealedWithKeyId).toBe(other.keyId);
    expect(error.message).not.toContain('whsec_abc');
  });

  it('refuses a value opened for another context (copied to another row)', () => {
    expect(failure(() => box.open(box.seal('whsec_abc', 'webhook-secret:wh_1'), 'webhook-secret:wh_2')).code).toBe('tampered');
  });

  it('refuses a tampered or truncated value', () => {
    const sealed = box.seal('whsec_abc', 'c');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0]! ^= 1;
    expect(failure(() => box.open([...parts.slice(0, 3), body.toString('base64url')].join('.'), 'c')).code).toBe('tampered');
    expect(failure(() => box.open([...parts.slice(0, 3), 'AAAA'].join('.'), 'c')).code).toBe('malformed');
    expect(failure(() => box.open('whsec_plain', 'c')).code).toBe('malformed');
  });

  it('accepts only 32-byte keys', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(TypeError);
  });

  it('derives a stable key id that is not the key', () => {
    expect(keyIdOf(key)).toBe(box.keyId);
    expect(box.keyId).toMatch(/^[0-9a-f]{12}$/);
    expect(key.toString('hex')).not.toContain(box.keyId);
  });
});
