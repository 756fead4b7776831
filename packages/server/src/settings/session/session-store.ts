import { createHash } from 'node:crypto';
import { hashToken as hashSecret } from '../../auth/token-secrets.js';
import { randomToken } from '../../ids.js';
import type { OperationContext, Principal } from '../../operations/context.js';
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

/** The live session with this id, or null when it is unknown, idle too long, expired or its token revoked. */
export async function resumeSession(context: OperationContext, sessionId: string, ip: string | null = null): Promise<Session | null> {
  if (sessionId.length === 0 || sessionId.length > 128) return null;
  const idHash = hashSecret(sessionId);
  const record = await findLiveSession(context.store.db, idHash);
  if (!record) return null;
  const now = context.now();
  if (now >= record.expiresAt || now - record.lastSeenAt >= sessionIdleMs) {
    await deleteSession(context.store.db, idHash);
    return null;
  }
  if (now - record.lastSeenAt >= touchEveryMs) await touchSession(context.store.db, idHash, now);
  return { principal: { tokenId: record.tokenId, workspaceId: record.workspaceId, ip }, csrfToken: csrfTokenOf(sessionId) };
}

export async function endSession(context: OperationContext, sessionId: string): Promise<void> {
  await deleteSession(context.store.db, hashSecret(sessionId));
}
