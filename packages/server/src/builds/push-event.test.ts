import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parsePushEvent } from './push-event.js';
import { readPushHeaders, type RequestHeaders } from './push-headers.js';
import { pushSignature } from './push-signature.js';

const secret = 'ghsec_test-secret';
const body = Buffer.from(JSON.stringify({ ref: 'refs/heads/main', after: 'a'.repeat(40) }));
const hmac = (key: string, bytes: Buffer) => createHmac('sha256', key).update(bytes).digest('hex');

/** Verifies as the route does: the token at once, an HMAC over the body fed in two chunks. */
function verify(headers: RequestHeaders, bytes: Buffer, key = secret): boolean {
  const signature = pushSignature(headers, readPushHeaders(headers).host, key);
  if (signature.kind === 'none') return false;
  if (signature.kind === 'token') return signature.valid;
  signature.update(bytes.subarray(0, 7));
  signature.update(bytes.subarray(7));
  return signature.valid();
}

describe('pushSignature', () => {
  it('accepts GitHub\'s x-hub-signature-256 of the raw body, and nothing else', () => {
    expect(verify({ 'x-hub-signature-256': `sha256=${hmac(secret, body)}` }, body)).toBe(true);
    expect(verify({ 'x-hub-signature-256': `sha256=${hmac('other', body)}` }, body)).toBe(false);
    expect(verify({ 'x-hub-signature-256': `sha256=${hmac(secret, body)}` }, Buffer.concat([body, Buffer.from(' ')]))).toBe(false);
    expect(verify({ 'x-hub-signature-256': 'sha256=zz' }, body)).toBe(false);
  });

  it('accepts Gitea\'s and Forgejo\'s bare hex HMAC', () => {
    expect(verify({ 'x-gitea-signature': hmac(secret, body) }, body)).toBe(true);
    expect(verify({ 'x-forgejo-signature': hmac(secret, body) }, body)).toBe(true);
    expect(verify({ 'x-gitea-signature': hmac(secret, body).toUpperCase() }, body)).toBe(true);
    expect(verify({ 'x-gitea-signature': hmac('other', body) }, body)).toBe(false);
  });

  it('decides GitLab\'s token from the headers alone, before any body', () => {
    const signature = pushSignature({ 'x-gitlab-token': secret }, 'gitlab', secret);
    expect(signature).toEqual({ kind: 'token', valid: true });
    expect(verify({ 'x-gitlab-token': `${secret}x` }, body)).toBe(false);
    expect(verify({ 'x-gitlab-token': '' }, body)).toBe(false);
  });

  it('names a request with no signature header at all', () => {
    expect(readPushHeaders({ 'x-github-event': 'push' }).host).toBeNull();
    expect(pushSignature({ 'x-github-event': 'push' }, null, secret)).toEqual({ kind: 'none' });
  });
});

describe('readPushHeaders', () => {
  it('reads the host, the event and the host\'s delivery id, printable and short', () => {
    expect(readPushHeaders({ 'x-hub-signature-256': 'x', 'x-github-event': 'push', 'x-github-delivery': 'f1e2d3c4-0000-4000-8000-000000000001' })).toEqual({ host: 'github', event: 'push', deliveryId: 'f1e2d3c4-0000-4000-8000-000000000001' });
    expect(readPushHeaders({ 'x-gitea-signature': 'x', 'x-gitea-event': 'push', 'x-gitea-delivery': 'abc' }).deliveryId).toBe('abc');
    expect(readPushHeaders({ 'x-gitlab-token': 'x', 'x-gitlab-event': 'Push Hook', 'x-gitlab-event-uuid': 'u-1' })).toEqual({ host: 'gitlab', event: 'Push Hook', deliveryId: 'u-1' });
    expect(readPushHeaders({ 'x-github-event': 'push\u001b[31m', 'x-github-delivery': 'd'.repeat(500) })).toEqual({ host: null, event: 'push?[31m', deliveryId: 'd'.repeat(100) });
    expect(readPushHeaders({}).deliveryId).toBeNull();
  });
});

describe('parsePushEvent', () => {
  const github = readPushHeaders({ 'x-github-event': 'push' });
  const push = (payload: unknown, headers = github) => parsePushEvent(headers, Buffer.from(JSON.stringify(payload))).intent;

  it('reads the branch and the pushed commit', () => {
    expect(push({ ref: 'refs/heads/release/2.0', after: 'b'.repeat(40) })).toEqual({ kind: 'push', branch: 'release/2.0', commit: 'b'.repeat(40) });
    expect(push({ ref: 'refs/heads/main', after: 'c'.repeat(40) }, readPushHeaders({ 'x-gitlab-event': 'Push Hook' }))).toMatchObject({ kind: 'push' });
  });

  it('ignores tags, deletions, other events and bodies that are not pushes, saying why', () => {
    expect(push({ ref: 'refs/tags/v1', after: 'b'.repeat(40) })).toEqual({ kind: 'ignored', reason: 'a tag (v1), not a branch' });
    expect(push({ ref: 'refs/heads/main', after: '0'.repeat(40) })).toEqual({ kind: 'ignored', reason: 'the branch main was deleted' });
    expect(push({ ref: 'refs/heads/main', after: 'b'.repeat(40), deleted: true })).toMatchObject({ kind: 'ignored' });
    expect(push({ ref: 'refs/heads/main' }, readPushHeaders({ 'x-github-event': 'issues' }))).toEqual({ kind: 'ignored', reason: 'not a push event (issues)' });
    expect(push({ ref: 'refs/heads/main', after: 'not a sha' })).toEqual({ kind: 'ignored', reason: 'the body names no commit' });
    expect(parsePushEvent(readPushHeaders({}), Buffer.from('ref=main')).intent).toEqual({ kind: 'ignored', reason: expect.stringContaining('not JSON') });
    expect(push({ zen: 'hi' }, readPushHeaders({ 'x-github-event': 'ping' }))).toEqual({ kind: 'ping' });
  });

  it('keeps the ref and commit the inbound log shows, from the one parse', () => {
    const tag = parsePushEvent(github, Buffer.from(JSON.stringify({ ref: 'refs/tags/v1\u0007', after: 'e'.repeat(40) })));
    expect({ ref: tag.ref, commit: tag.commit }).toEqual({ ref: 'refs/tags/v1?', commit: 'e'.repeat(40) });
    expect(parsePushEvent(github, Buffer.from('[1]'))).toMatchObject({ ref: null, commit: null });
  });
});
