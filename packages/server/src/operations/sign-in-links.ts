import { randomToken } from '../ids.js';
import { hashToken as hashSecret } from '../auth/token-secrets.js';
import { findUsableSignInLink, insertSignInLink, spendSignInLink } from '../store/queries/sessions.js';
import type { OperationContext, Principal } from './context.js';
import { requireToken } from './rights.js';

/** A sign-in link made by `svc open` works once, for 5 minutes (docs/settings.md). */
export const signInLinkLifetimeMs = 5 * 60 * 1000;

export interface SignInLink {
  readonly url: string;
  readonly expiresAt: string;
}

/** `svc open`: a one-time link that starts a settings session with the caller's token. */
export async function createSignInLink(context: OperationContext, principal: Principal): Promise<SignInLink> {
  const secret = randomToken(256);
  const now = context.now();
  const expiresAt = now + signInLinkLifetimeMs;
  await insertSignInLink(context.store.db, { idHash: hashSecret(secret), tokenId: requireToken(principal).tokenId, now, expiresAt });
  return { url: `${context.urls.baseUrl}/login/link/${secret}`, expiresAt: new Date(expiresAt).toISOString() };
}

/** Whom a usable link signs in as: the token's name, and its workspace (null: an admin token). */
export interface SignInLinkHolder {
  readonly tokenName: string;
  readonly workspace: string | null;
  readonly expiresAt: string;
}

/**
 * Who a link would sign in, without spending it (opening a link only shows this; docs/settings.md),
 * or null if it is unknown, used, expired or its token revoked.
 */
export async function describeLink(context: OperationContext, secret: string): Promise<SignInLinkHolder | null> {
  if (!possibleSecret(secret)) return null;
  const found = await findUsableSignInLink(context.store.db, hashSecret(secret), context.now());
  return found ? { tokenName: found.tokenName, workspace: found.workspaceSlug, expiresAt: new Date(found.expiresAt).toISOString() } : null;
}

/** Spends a link; the token id it signs in with, or null if it is unknown, used, expired or revoked. */
export async function spendLink(context: OperationContext, secret: string): Promise<string | null> {
  if (!possibleSecret(secret)) return null;
  return (await spendSignInLink(context.store.db, hashSecret(secret), context.now())) ?? null;
}

function possibleSecret(secret: string): boolean {
  return secret.length > 0 && secret.length <= 128;
}
