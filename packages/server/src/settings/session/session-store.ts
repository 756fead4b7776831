import { createHash } from 'node:crypto';
import { hashToken as hashSecret } from '../../auth/token-secrets.js';
import { randomToken } from '../../ids.js';
import type { Principal } from '../../auth/principal.js';
import type { OperationContext } from '../../operations/context.js';
import { personPrincipal, type PersonSignIn } from '../../operations/person-sign-in.js';
import { deletePersonSession, findPersonSession, insertPersonSession, touchPersonSession } from '../../store/queries/person-sessions.js';
import { recordAudit } from '../../operations/audit-log.js';
import { findTokenListing } from '../../store/queries/tokens.js';
import { deleteSession, findLiveSession, insertSession, touchSession } from '../../store/queries/sessions.js';

/** How long a session lives (docs/settings.md): 12 hours without a request, 7 days at most. */
export const sessionIdleMs = 12 * 60 * 60 * 1000;
export const sessionMaxMs = 7 * 24 * 60 * 60 * 1000;
/** A session's last-seen time is written at most this often, not on every page. */
const touchEveryMs = 60 * 1000;

export interface Session {
  readonly principal: Principal;
  /** The CSRF token that state-changing requests of this session must carry. */
  readonly csrfToken: string;
}

/**
 * The CSRF token is derived from the session id (a keyed hash), so it needs no storage, is
 * stable for the session's life, and cannot be computed without the cookie.
 */
function csrfTokenOf(sessionId: string): string {
  return createHash('sha256').update(`csrf:${sessionId}`, 'utf8').digest('base64url');
}

/** Starts a session of this token; the sign-in is recorded in the audit log in the same transaction. */
export async function startSession(context: OperationContext, tokenId: string, ip: string | null = null): Promise<string> {
  const id = randomToken(256);
  const now = context.now();
  await context.store.transaction(async (trx) => {
    await insertSession(trx, { idHash: hashSecret(id), tokenId, now, expiresAt: now + sessionMaxMs });
    const token = await findTokenListing(trx, tokenId);
    await recordAudit(trx, context, { tokenId, workspaceId: token?.token.workspace_id ?? null, ip }, { action: 'session.started', workspaceId: token?.token.workspace_id ?? null });
  });
  return id;
}

/**
 * A session of a person (signed in by an invite or an email link; docs/members.md), limited
 * to one workspace when the link proved nothing about the address. The sign-in is recorded
 * in the audit log of each workspace the session sees, in the session's transaction.
 */
export async function startPersonSession(context: OperationContext, signIn: PersonSignIn, ip: string | null = null): Promise<string> {
  const id = randomToken(256);
  const now = context.now();
  const { personId, limitedTo } = signIn;
  const principal = await personPrincipal(context, personId, limitedTo);
  await context.store.transaction(async (trx) => {
    await insertPersonSession(trx, { idHash: hashSecret(id), personId, workspaceId: limitedTo, now, expiresAt: now + sessionMaxMs });
    if (principal === null) return;
    for (const membership of principal.memberships) {
      await recordAudit(trx, context, { ...principal, ip }, { action: 'session.started', workspaceId: membership.workspaceId });
    }
  });
  return id;
}

/** The live session with this id, or null when it is unknown, idle too long, expired or its token revoked. */
export async function resumeSession(context: OperationContext, sessionId: string, ip: string | null = null): Promise<Session | null> {
  if (sessionId.length === 0 || sessionId.length > 128) return null;
  const idHash = hashSecret(sessionId);
  const record = await findLiveSession(context.store.db, idHash);
  if (!record) return resumePersonSession(context, sessionId, idHash, ip);
  const now = context.now();
  if (now >= record.expiresAt || now - record.lastSeenAt >= sessionIdleMs) {
    await deleteSession(context.store.db, idHash);
    return null;
  }
  if (now - record.lastSeenAt >= touchEveryMs) await touchSession(context.store.db, idHash, now);
  return { principal: { kind: 'token', tokenId: record.tokenId, workspaceId: record.workspaceId, name: record.tokenName, ip }, csrfToken: csrfTokenOf(sessionId) };
}

/** A person's session: their memberships are read now, so a removal or new role counts at once. */
async function resumePersonSession(context: OperationContext, sessionId: string, idHash: string, ip: string | null): Promise<Session | null> {
  const record = await findPersonSession(context.store.db, idHash);
  if (!record) return null;
  const now = context.now();
  if (now >= record.expiresAt || now - record.lastSeenAt >= sessionIdleMs) {
    await deletePersonSession(context.store.db, idHash);
    return null;
  }
  const principal = await personPrincipal(context, record.personId, record.workspaceId);
  if (!principal) return null;
  if (now - record.lastSeenAt >= touchEveryMs) await touchPersonSession(context.store.db, idHash, now);
  return { principal: { ...principal, ip }, csrfToken: csrfTokenOf(sessionId) };
}

export async function endSession(context: OperationContext, sessionId: string): Promise<void> {
  const idHash = hashSecret(sessionId);
  await deleteSession(context.store.db, idHash);
  await deletePersonSession(context.store.db, idHash);
}
