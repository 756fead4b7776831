import { ServiceError } from '@svc/protocol';
import type { TokenInfo, WhoamiResponse } from '@svc/protocol/api';
import { generateToken, hashToken } from '../auth/token-secrets.js';
import { ensureWorkspace } from '../store/queries/projects.js';
import { deleteSessionsOfToken } from '../store/queries/sessions.js';
import { countActiveAdminTokens, findTokenListing, insertToken, listTokens as queryTokens, revokeToken as markRevoked, type TokenListing } from '../store/queries/tokens.js';
import { recordAudit } from './audit-log.js';
import { isAdmin, type OperationContext, type Principal } from './context.js';
import { requireToken } from './rights.js';
import { isoTime, isoTimeOrNull } from './iso-time.js';

function toTokenInfo({ token, workspaceSlug }: TokenListing): TokenInfo {
  return {
    id: token.id,
    name: token.name,
    workspace: workspaceSlug,
    createdAt: isoTime(token.created_at),
    lastUsedAt: isoTimeOrNull(token.last_used_at),
    revokedAt: isoTimeOrNull(token.revoked_at),
  };
}

/** Token management is for admin tokens only; a workspace token gets `forbidden`. */
function requireAdmin(principal: Principal): void {
  if (!isAdmin(principal)) throw new ServiceError('forbidden', 'only an admin token can manage tokens');
}

/** The token making the request: what `svc login` shows. */
export async function whoami(context: OperationContext, principal: Principal): Promise<WhoamiResponse['token']> {
  const listing = await findTokenListing(context.store.db, requireToken(principal).tokenId);
  if (!listing) throw new ServiceError('unauthorized', 'the token was revoked or deleted');
  return { id: listing.token.id, name: listing.token.name, workspace: listing.workspaceSlug, admin: listing.token.workspace_id === null };
}

/**
 * `svc tokens create`: a new token, returned once in clear (only its SHA-256 is stored).
 * With `workspace` the token sees and changes only that workspace (created if new);
 * without, it is an admin token.
 */
export async function createToken(
  context: OperationContext,
  principal: Principal,
  input: { name?: string | undefined; workspace?: string | undefined },
): Promise<{ token: TokenInfo; secret: string }> {
  requireAdmin(principal);
  const secret = generateToken();
  const now = context.now();
  const listing = await context.store.transaction(async (trx) => {
    const workspace = input.workspace === undefined ? null : await ensureWorkspace(trx, input.workspace, now);
    const name = input.name ?? (workspace ? `${workspace.slug} token` : 'admin token');
    const token = await insertToken(trx, { name, tokenHash: hashToken(secret), workspaceId: workspace?.id ?? null }, now);
    await recordAudit(trx, context, principal, { action: 'token.created', workspaceId: workspace?.id ?? null, object: { type: 'token', id: token.id } });
    return { token, workspaceSlug: workspace?.slug ?? null };
  });
  return { token: toTokenInfo(listing), secret };
}

/** `svc tokens list`: every token, newest first, never its secret. */
export async function listTokens(context: OperationContext, principal: Principal): Promise<TokenInfo[]> {
  requireAdmin(principal);
  return (await queryTokens(context.store.db)).map(toTokenInfo);
}

/**
 * `svc tokens revoke`: the token stops working at once. Revoking a revoked token changes
 * nothing; the last admin token that works cannot be revoked (`conflict`), so the service
 * is never left without one.
 */
export async function revokeToken(context: OperationContext, principal: Principal, input: { id: string }): Promise<TokenInfo> {
  requireAdmin(principal);
  return context.store.transaction(async (trx) => {
    const listing = await findTokenListing(trx, input.id);
    if (!listing) throw new ServiceError('not_found', `no token "${input.id}"`);
    if (listing.token.revoked_at !== null) return toTokenInfo(listing);
    if (listing.token.workspace_id === null && (await countActiveAdminTokens(trx, context.store.capabilities)) <= 1) {
      throw new ServiceError('conflict', 'this is the last admin token; create another admin token before revoking it');
    }
    await markRevoked(trx, input.id, context.now());
    // Its settings-area sessions end with it (docs/settings.md).
    await deleteSessionsOfToken(trx, input.id);
    await recordAudit(trx, context, principal, { action: 'token.revoked', workspaceId: listing.token.workspace_id, object: { type: 'token', id: input.id } });
    const revoked = await findTokenListing(trx, input.id);
    if (!revoked) throw new Error(`token ${input.id} vanished while it was revoked`);
    return toTokenInfo(revoked);
  });
}
