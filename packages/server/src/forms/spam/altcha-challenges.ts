import { createHash, hkdfSync } from 'node:crypto';
import { createChallenge } from 'altcha-lib/v1';
import type { Challenge } from 'altcha-lib/v1/types';
import { tokensEqual } from '../../lib/constant-time.js';

/** A challenge is good for 20 minutes (docs/form-endpoint.md, "ALTCHA"). */
export const challengeLifetimeMs = 20 * 60_000;

/** A widget's payload is a few hundred characters; anything much longer is not one. */
const maxPayloadLength = 2_000;

/**
 * The HMAC key of ALTCHA challenges, derived from the server's encryption key (the one that
 * seals webhook secrets): every instance that shares a database shares it, so a challenge
 * fetched from one instance is accepted by another, and nothing new has to be kept.
 */
export function altchaKey(encryptionKey: Uint8Array): string {
  return Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'svc altcha challenges v1', 32)).toString('hex');
}

export type SolutionCheck =
  | { readonly valid: true; /** Names the solution once, for the spent set. */ readonly digest: string; readonly expiresAt: number }
  | { readonly valid: false; readonly problem: 'missing' | 'malformed' | 'forged' | 'expired' };

/**
 * ALTCHA's v1 proof of work, as `altcha-lib/v1` makes it: a challenge is one hash and one
 * HMAC, nothing stored; it names its form and its expiry in the salt (which the signature
 * covers), so a challenge of one form does not open another, and an old one is refused.
 */
export class AltchaChallenges {
  constructor(
    private readonly hmacKey: string,
    private readonly maxNumber: number,
  ) {}

  /** `GET /api/f/{id}/challenge`: `{algorithm, challenge, maxnumber, salt, signature}`. */
  async create(endpointId: string, now: number): Promise<Challenge> {
    return createChallenge({
      hmacKey: this.hmacKey,
      maxnumber: this.maxNumber,
      expires: new Date(now + challengeLifetimeMs),
      params: { form: endpointId },
    });
  }

  /**
   * Checks a post's `altcha` field, the widget's base64 JSON (or, from a JSON post, that
   * object itself): the number must hash to the challenge, the challenge must carry our
   * signature for this form, and it must not have expired. Comparisons are constant-time.
   */
  async verify(value: unknown, endpointId: string, now: number): Promise<SolutionCheck> {
    if (value === undefined || value === null || value === '') return { valid: false, problem: 'missing' };
    const payload = readPayload(value);
    if (payload === null) return { valid: false, problem: 'malformed' };
    const params = new URLSearchParams(payload.salt.split('?')[1] ?? '');
    const expires = Number(params.get('expires'));
    if (params.get('form') !== endpointId || !Number.isSafeInteger(expires)) return { valid: false, problem: 'forged' };
    const expected = await createChallenge({ algorithm: 'SHA-256', hmacKey: this.hmacKey, number: payload.number, salt: payload.salt });
    if (!tokensEqual(expected.challenge, payload.challenge) || !tokensEqual(expected.signature, payload.signature)) return { valid: false, problem: 'forged' };
    const expiresAt = expires * 1000;
    if (expiresAt <= now) return { valid: false, problem: 'expired' };
    return { valid: true, digest: createHash('sha256').update(payload.signature).digest('hex'), expiresAt };
  }
}

interface Payload {
  readonly challenge: string;
  readonly number: number;
  readonly salt: string;
  readonly signature: string;
}

function readPayload(value: unknown): Payload | null {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    if (value.length > maxPayloadLength) return null;
    try {
      parsed = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    } catch {
      return null;
    }
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { algorithm, challenge, number, salt, signature } = parsed as Record<string, unknown>;
  if (algorithm !== 'SHA-256' || typeof challenge !== 'string' || typeof salt !== 'string' || typeof signature !== 'string') return null;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) return null;
  if (challenge.length > 128 || signature.length > 128 || salt.length > 512) return null;
  return { challenge, number, salt, signature };
}
