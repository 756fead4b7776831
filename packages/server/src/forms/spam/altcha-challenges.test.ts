import { solveChallenge } from 'altcha-lib/v1';
import { describe, expect, it } from 'vitest';
import { AltchaChallenges, altchaKey, challengeLifetimeMs } from './altcha-challenges.js';

const challenges = new AltchaChallenges(altchaKey(new Uint8Array(32).fill(7)), 2_000);
const now = Date.parse('2026-11-26T12:00:00Z');

async function solved(endpointId: string, at = now): Promise<string> {
  const challenge = await challenges.create(endpointId, at);
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  return Buffer.from(JSON.stringify({ ...challenge, number: solution!.number })).toString('base64');
}

describe('ALTCHA challenges', () => {
  it('are the v1 format the widget takes, naming the form and expiring in 20 minutes', async () => {
    const challenge = await challenges.create('abc', now);
    expect(Object.keys(challenge).sort()).toEqual(['algorithm', 'challenge', 'maxnumber', 'salt', 'signature']);
    expect(challenge).toMatchObject({ algorithm: 'SHA-256', maxnumber: 2_000 });
    expect(challenge.salt).toContain('form=abc');
    expect(challenge.salt).toContain(`expires=${(now + challengeLifetimeMs) / 1000}`);
  });

  it('accept a solved challenge of the form, base64 or as a JSON object, with one digest per challenge', async () => {
    const payload = await solved('abc');
    const check = await challenges.verify(payload, 'abc', now + 1_000);
    expect(check).toMatchObject({ valid: true, expiresAt: now + challengeLifetimeMs });
    const object = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as unknown;
    expect(await challenges.verify(object, 'abc', now)).toEqual(check);
  });

  it('refuse a missing, malformed, forged, expired or other form\'s solution', async () => {
    const payload = await solved('abc');
    const decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as { number: number; signature: string };
    const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64');
    expect(await challenges.verify(undefined, 'abc', now)).toEqual({ valid: false, problem: 'missing' });
    expect(await challenges.verify('not base64 json', 'abc', now)).toEqual({ valid: false, problem: 'malformed' });
    expect(await challenges.verify(encode({ ...decoded, number: decoded.number + 1 }), 'abc', now)).toEqual({ valid: false, problem: 'forged' });
    expect(await challenges.verify(encode({ ...decoded, signature: '0'.repeat(64) }), 'abc', now)).toEqual({ valid: false, problem: 'forged' });
    expect(await challenges.verify(payload, 'other', now)).toEqual({ valid: false, problem: 'forged' });
    expect(await challenges.verify(payload, 'abc', now + challengeLifetimeMs)).toEqual({ valid: false, problem: 'expired' });
    const stranger = new AltchaChallenges(altchaKey(new Uint8Array(32).fill(8)), 2_000);
    expect(await stranger.verify(payload, 'abc', now)).toEqual({ valid: false, problem: 'forged' });
  });
});
