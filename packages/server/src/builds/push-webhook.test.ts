import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readPush, signedBy, verifyPushSignature } from './push-webhook.js';

const secret = 'ghsec_test-secret';
const body = Buffer.from(JSON.stringify({ ref: 'refs/heads/main', after: 'a'.repeat(40) }));
const hmac = (key: string, bytes: Buffer) => createHmac('sha256', key).update(bytes).digest('hex');

describe('verifyPushSignature', () => {
  it('accepts GitHub\'s x-hub-signature-256 of the raw body, and nothing else', () => {
    expect(verifyPushSignature({ 'x-hub-signature-256': `sha256=${hmac(secret, body)}` }, body, secret)).toBe(true);
    expect(verifyPushSignature({ 'x-hub-signature-256': `sha256=${hmac('other', body)}` }, body, secret)).toBe(false);
    expect(verifyPushSignature({ 'x-hub-signature-256': `sha256=${hmac(secret, body)}` }, Buffer.concat([body, Buffer.from(' ')]), secret)).toBe(false);
    expect(verifyPushSignature({ 'x-hub-signature-256': 'sha256=zz' }, body, secret)).toBe(false);
  });

  it('accepts Gitea\'s and Forgejo\'s bare hex HMAC', () => {
    expect(verifyPushSignature({ 'x-gitea-signature': hmac(secret, body) }, body, secret)).toBe(true);
    expect(verifyPushSignature({ 'x-forgejo-signature': hmac(secret, body) }, body, secret)).toBe(true);
    expect(verifyPushSignature({ 'x-gitea-signature': hmac(secret, body).toUpperCase() }, body, secret)).toBe(true);
    expect(verifyPushSignature({ 'x-gitea-signature': hmac('other', body) }, body, secret)).toBe(false);
  });

  it('accepts GitLab\'s token only when it is the secret', () => {
    expect(verifyPushSignature({ 'x-gitlab-token': secret }, body, secret)).toBe(true);
    expect(verifyPushSignature({ 'x-gitlab-token': `${secret}x` }, body, secret)).toBe(false);
    expect(verifyPushSignature({ 'x-gitlab-token': '' }, body, secret)).toBe(false);
  });

  it('refuses a request with no signature header at all', () => {
    expect(signedBy({ 'x-github-event': 'push' })).toBeNull();
    expect(verifyPushSignature({ 'x-github-event': 'push' }, body, secret)).toBe(false);
  });
});

describe('readPush', () => {
  const push = (payload: unknown, headers: Record<string, string> = { 'x-github-event': 'push' }) => readPush(headers, Buffer.from(JSON.stringify(payload)));

  it('reads the branch and the pushed commit', () => {
    expect(push({ ref: 'refs/heads/release/2.0', after: 'b'.repeat(40) })).toEqual({ kind: 'push', branch: 'release/2.0', commit: 'b'.repeat(40) });
    expect(push({ ref: 'refs/heads/main', after: 'c'.repeat(40) }, { 'x-gitlab-event': 'Push Hook' })).toMatchObject({ kind: 'push' });
  });

  it('ignores tags, deletions, other events and bodies that are not pushes, saying why', () => {
    expect(push({ ref: 'refs/tags/v1', after: 'b'.repeat(40) })).toEqual({ kind: 'ignored', reason: 'a tag (v1), not a branch' });
    expect(push({ ref: 'refs/heads/main', after: '0'.repeat(40) })).toEqual({ kind: 'ignored', reason: 'the branch main was deleted' });
    expect(push({ ref: 'refs/heads/main', after: 'b'.repeat(40), deleted: true })).toMatchObject({ kind: 'ignored' });
    expect(push({ ref: 'refs/heads/main' }, { 'x-github-event': 'issues' })).toEqual({ kind: 'ignored', reason: 'not a push event (issues)' });
    expect(push({ ref: 'refs/heads/main', after: 'not a sha' })).toEqual({ kind: 'ignored', reason: 'the body names no commit' });
    expect(readPush({}, Buffer.from('ref=main'))).toMatchObject({ kind: 'ignored' });
    expect(push({ zen: 'hi' }, { 'x-github-event': 'ping' })).toEqual({ kind: 'ping' });
  });
});
