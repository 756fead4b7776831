import { createHmac } from 'node:crypto';
import { hashesEqual, hashToken } from '../auth/token-secrets.js';
import { firstHeader, type GitHost, type RequestHeaders } from './push-headers.js';

/**
 * Whether a push webhook is signed with the project's push secret (docs/hosting.md, "Deploys
 * from git"), decided before anything in its body is read. GitLab sends the secret itself
 * (`x-gitlab-token`), known as soon as the headers are; GitHub (`x-hub-signature-256:
 * sha256=<hex>`), Gitea and Forgejo (`x-gitea-signature` / `x-forgejo-signature: <hex>`) sign
 * the raw body with HMAC-SHA256, computed chunk by chunk while the body is read. Every
 * comparison is in constant time.
 */
export type PushSignature =
  | { readonly kind: 'none' }
  | { readonly kind: 'token'; readonly valid: boolean }
  | { readonly kind: 'hmac'; update(chunk: Uint8Array): void; valid(): boolean };

export function pushSignature(headers: RequestHeaders, host: GitHost | null, secret: string): PushSignature {
  if (host === null) return { kind: 'none' };
  // Compared as digests, so the length of the secret does not show either.
  if (host === 'gitlab') return { kind: 'token', valid: hashesEqual(hashToken(firstHeader(headers, 'x-gitlab-token') ?? ''), hashToken(secret)) };
  const given = host === 'github' ? (firstHeader(headers, 'x-hub-signature-256') ?? '').replace(/^sha256=/i, '') : (firstHeader(headers, 'x-gitea-signature') ?? firstHeader(headers, 'x-forgejo-signature') ?? '');
  const hmac = createHmac('sha256', secret);
  return {
    kind: 'hmac',
    update: (chunk) => void hmac.update(chunk),
    valid: () => {
      const digest = hmac.digest('hex');
      return /^[0-9a-fA-F]{64}$/.test(given) && hashesEqual(given.toLowerCase(), digest);
    },
  };
}
