import { randomBytes } from 'node:crypto';

const alphabet = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lowercase

function base32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += alphabet[(buffer << (5 - bits)) & 31];
  return out;
}

let lastTime = -1;
const lastRandom = new Uint8Array(10);

/**
 * A time-ordered identifier: 48 bits of milliseconds then 80 random bits, in base32
 * (26 characters). Within one millisecond the random part is incremented, so ids made by
 * one process sort in creation order; `id` order is "newest first" for listings.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  if (now <= lastTime) {
    now = lastTime;
    for (let i = lastRandom.length - 1; i >= 0; i--) {
      lastRandom[i] = ((lastRandom[i] ?? 0) + 1) & 0xff;
      if (lastRandom[i] !== 0) break;
    }
  } else {
    lastTime = now;
    lastRandom.set(randomBytes(10));
  }
  let time = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes.set(lastRandom, 6);
  return `${prefix}_${base32(bytes)}`;
}

/** An opaque, unguessable identifier: `bits` random bits in base32. */
export function randomToken(bits: number): string {
  return base32(randomBytes(Math.ceil(bits / 8)));
}

/** Form endpoint ids: 120 random bits (docs/form-endpoint.md asks for at least 96). */
export function newEndpointId(): string {
  return randomToken(120);
}

/** A project's public Pinpoints widget key: `pk_` and 120 random bits (docs/pinpoints.md). */
export function newWidgetKey(): string {
  return `pk_${randomToken(120)}`;
}

/** A deploy id is a DNS label (its preview hostname): `dpl-` and the 26 characters of a time-ordered id. */
export function newDeployId(now: number): string {
  return `dpl-${newId('x', now).slice(2)}`;
}

export const deployIdPattern = /^dpl-[0-9a-z]{26}$/;
