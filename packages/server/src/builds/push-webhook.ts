import { createHmac } from 'node:crypto';
import { hashesEqual, hashToken } from '../auth/token-secrets.js';

/**
 * Push webhooks as the common git hosts send them (docs/hosting.md, "Deploys from git"):
 * who sent it, whether it is signed with the project's push secret, and what it pushed.
 * Pure functions of the headers and the raw body, so the rules read like the hosts' docs.
 */

export type GitHost = 'github' | 'gitea' | 'gitlab';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The host whose signature header the request carries; null when it carries none. */
export function signedBy(headers: Headers): GitHost | null {
  if (header(headers, 'x-hub-signature-256') !== undefined) return 'github';
  if (header(headers, 'x-gitea-signature') !== undefined || header(headers, 'x-forgejo-signature') !== undefined) return 'gitea';
  if (header(headers, 'x-gitlab-token') !== undefined) return 'gitlab';
  return null;
}

/**
 * Whether the request is signed with `secret`, compared in constant time: GitHub's
 * `x-hub-signature-256: sha256=<hex HMAC-SHA256 of the raw body>`, Gitea's and Forgejo's
 * `x-gitea-signature` / `x-forgejo-signature: <hex HMAC-SHA256>`, GitLab's
 * `x-gitlab-token: <secret>`. A request without any of them is not.
 */
export function verifyPushSignature(headers: Headers, body: Buffer, secret: string): boolean {
  const host = signedBy(headers);
  if (host === null) return false;
  // GitLab sends the secret itself: compared as digests, so its length does not show either.
  if (host === 'gitlab') return hashesEqual(hashToken(header(headers, 'x-gitlab-token') ?? ''), hashToken(secret));
  const given = host === 'github' ? (header(headers, 'x-hub-signature-256') ?? '').replace(/^sha256=/i, '') : (header(headers, 'x-gitea-signature') ?? header(headers, 'x-forgejo-signature') ?? '');
  if (!/^[0-9a-fA-F]{64}$/.test(given)) return false;
  return hashesEqual(given, createHmac('sha256', secret).update(body).digest('hex'));
}

/** What a signed request asks for. */
export type PushIntent =
  | { readonly kind: 'ping' }
  | { readonly kind: 'push'; readonly branch: string; readonly commit: string }
  | { readonly kind: 'ignored'; readonly reason: string };

const zeroCommit = /^0{40}$|^0{64}$/;

/** The event a signed request carries: a push to a branch, a ping, or something ignored and why. */
export function readPush(headers: Headers, body: Buffer): PushIntent {
  const event = header(headers, 'x-github-event') ?? header(headers, 'x-gitea-event') ?? header(headers, 'x-forgejo-event') ?? header(headers, 'x-gitlab-event');
  if (event === 'ping') return { kind: 'ping' };
  if (event !== undefined && event !== 'push' && event !== 'Push Hook') return { kind: 'ignored', reason: `not a push event (${event.slice(0, 100)})` };
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    return { kind: 'ignored', reason: 'the body is not JSON (set the webhook\'s content type to application/json)' };
  }
  if (typeof payload !== 'object' || payload === null) return { kind: 'ignored', reason: 'the body is not a push event' };
  const { ref, after, deleted } = payload as { ref?: unknown; after?: unknown; deleted?: unknown };
  if (typeof ref !== 'string') return { kind: 'ignored', reason: 'the body names no ref' };
  if (ref.startsWith('refs/tags/')) return { kind: 'ignored', reason: `a tag (${ref.slice('refs/tags/'.length, 300)}), not a branch` };
  if (!ref.startsWith('refs/heads/')) return { kind: 'ignored', reason: `not a branch (${ref.slice(0, 300)})` };
  const branch = ref.slice('refs/heads/'.length);
  if (deleted === true || (typeof after === 'string' && zeroCommit.test(after))) return { kind: 'ignored', reason: `the branch ${branch} was deleted` };
  if (typeof after !== 'string' || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(after)) return { kind: 'ignored', reason: 'the body names no commit' };
  return { kind: 'push', branch, commit: after };
}
