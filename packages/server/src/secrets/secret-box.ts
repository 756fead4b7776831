import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const version = 'enc1';
const keyBytes = 32;
const ivBytes = 12;
const tagBytes = 16;
const maxOpenedCache = 1_024;

export type SecretBoxErrorCode = 'wrong_key' | 'malformed' | 'tampered';

/** A sealed value could not be opened; the message never contains the value. */
export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';

  constructor(
    readonly code: SecretBoxErrorCode,
    message: string,
    /** Id of the key that sealed the value, when it could be read. */
    readonly sealedWithKeyId: string | null = null,
  ) {
    super(message);
  }
}

/**
 * Encrypts small secrets at rest with AES-256-GCM. A sealed value reads
 * `enc1.<key id>.<iv>.<ciphertext and tag>` (base64url): the key id (a hash of the key,
 * never the key) tells a wrong key apart from a damaged value. `context` is bound as
 * additional authenticated data, so a sealed value copied to another row does not open.
 */
export class SecretBox {
  readonly keyId: string;
  private readonly key: Buffer;
  /** Values opened lately: the delivery worker opens the same few secrets for every delivery. */
  private readonly opened = new Map<string, string>();

  constructor(key: Uint8Array) {
    if (key.length !== keyBytes) throw new TypeError(`an encryption key is ${keyBytes} bytes, not ${key.length}`);
    this.key = Buffer.from(key);
    this.keyId = keyIdOf(key);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: tagBytes });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [version, this.keyId, iv.toString('base64url'), sealed.toString('base64url')].join('.');
  }

  /** @throws {SecretBoxError} when the value is damaged, sealed with another key or for another context. */
  open(sealed: string, context: string): string {
    const cacheKey = `${context}\u0000${sealed}`;
    const cached = this.opened.get(cacheKey);
    if (cached !== undefined) return cached;
    const plaintext = this.decrypt(sealed, context);
    if (this.opened.size >= maxOpenedCache) this.opened.clear();
    this.opened.set(cacheKey, plaintext);
    return plaintext;
  }

  private decrypt(sealed: string, context: string): string {
    const parts = sealed.split('.');
    const [tag, keyId, ivText, bodyText] = parts;
    if (parts.length !== 4 || tag !== version || !keyId || !ivText || !bodyText) {
      throw new SecretBoxError('malformed', 'the sealed value is not in the enc1 format');
    }
    if (keyId !== this.keyId) {
      throw new SecretBoxError('wrong_key', `the value was sealed with key ${keyId}, not with this key (${this.keyId})`, keyId);
    }
    const iv = Buffer.from(ivText, 'base64url');
    const body = Buffer.from(bodyText, 'base64url');
    if (iv.length !== ivBytes || body.length < tagBytes) throw new SecretBoxError('malformed', 'the sealed value is truncated', keyId);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: tagBytes });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - tagBytes));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - tagBytes)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('tampered', 'the sealed value does not authenticate with this key and context', keyId);
    }
  }
}

/** A short public fingerprint of a key, safe to log and to store next to what it sealed. */
export function keyIdOf(key: Uint8Array): string {
  return createHash('sha256').update('svc encryption key id\u0000').update(key).digest('hex').slice(0, 12);
}
