import { ServiceError } from '@svc/protocol';
import type { TokenInfo, WhoamiResponse } from '@svc/protocol/api';
import { generateToken, hashToken } from '../auth/token-secrets.js';
import { ensureWorkspace, findWorkspaceById } from '../store/queries/projects.js';
import type { WorkspaceRow } from '../store/schema.js';
import { deleteSessionsOfToken } from '../store/queries/sessions.js';
import { countActiveAdminTokens, findTokenListing, insertToken, listTokens as queryTokens, revokeToken as markRevoked, type TokenListing } from '../store/queries/tokens.js';
import { isAdmin, isPerson, type OperationContext, type Principal } from './context.js';
import { canManagePeople, canSee, requireManagePeople, requireToken, visibleWorkspaceIds } from './rights.js';
import { workspaceInScope } from './scope.js';
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

/** The workspaces whose tokens the principal manages (null: every token, an admin token's). */
function managedWorkspaces(principal: Principal): readonly string[] | null {
  const visible = visibleWorkspaceIds(principal);
  return visible === null ? null : visible.filter((workspaceId) => canManagePeople(principal, workspaceId));
}

/** The token making the request: what `svc login` shows. */
export async function whoami(context: OperationContext, principal: Principal): Promise<WhoamiResponse['token']> {
  const listing = await findTokenListing(context.store.db, requireToken(principal).tokenId);
  if (!listing) throw new ServiceError('unauthorized', 'the token was revoked or deleted');
  return { id: listing.token.id, name: listing.token.name, workspace: listing.workspaceSlug, admin: listing.token.workspace_id === null };
}

/**
 * `svc tokens create`: a new token, returned once in clear (only its SHA-256 is stored).
 * With `workspace` the token sees and changes only that workspace (created if new, by an
 * admin token); without, an admin token's is an admin token and a workspace token's is of
 * its own workspace. Owners and a workspace's tokens make tokens of their workspace only.
 */
export async function createToken(
  context: OperationContext,
  principal: Principal,
  input: { name?: string | undefined; workspace?: string | undefined },
): Promise<{ token: TokenInfo; secret: string }> {
  const secret = generateToken();
  const now = context.now();
  const listing = await context.store.transaction(async (trx) => {
    let workspace: WorkspaceRow | null;
    if (isAdmin(principal)) {
      workspace = input.workspace === undefined ? null : await ensureWorkspace(trx, input.workspace, now);
    } else {
      // A workspace's tokens and owners make tokens of that workspace only, never admin tokens.
      const slug = input.workspace ?? (isPerson(principal) ? undefined : (await findWorkspaceById(trx, principal.workspaceId ?? '')).slug);
      if (slug === undefined) throw new ServiceError('validation_failed', 'choose the workspace of the token', { errors: { workspace: 'is required' } });
      workspace = await workspaceInScope(trx, principal, slug);
      requireManagePeople(principal, workspace.id);
    }
    const name = input.name ?? (workspace ? `${workspace.slug} token` : 'admin token');
    const token = await insertToken(trx, { name, tokenHash: hashToken(secret), workspaceId: workspace?.id ?? null }, now);
    return { token, workspaceSlug: workspace?.slug ?? null };
  });
  return { token: toTokenInfo(listing), secret };
}

/** `svc tokens list`: the tokens the principal manages (an admin token: every token), newest first, never a secret. */
export async function listTokens(context: OperationContext, principal: Principal): Promise<TokenInfo[]> {
  const workspaces = managedWorkspaces(principal);
  if (workspaces !== null && workspaces.length === 0) throw new ServiceError('forbidden', 'only owners and tokens of a workspace can manage its tokens');
  return (await queryTokens(context.store.db, workspaces)).map(toTokenInfo);
}

/**
 * `svc tokens revoke`: the token stops working at once. Revoking a revoked token changes
 * nothing; the last admin token that works cannot be revoked (`conflict`), so the service
 * is never left without one.
 */
export async function revokeToken(context: OperationContext, principal: Principal, input: { id: string }): Promise<TokenInfo> {
  return context.store.transaction(async (trx) => {
    const listing = await findTokenListing(trx, input.id);
    const workspaceId = listing?.token.workspace_id ?? null;
    // An admin token is only an admin's to see; another workspace's token is not there at all.
    if (!listing || (!isAdmin(principal) && (workspaceId === null || !canSee(principal, workspaceId)))) throw new ServiceError('not_found', `no token "${input.id}"`);
    if (workspaceId !== null) requireManagePeople(principal, workspaceId);
    if (listing.token.revoked_at !== null) return toTokenInfo(listing);
    if (listing.token.workspace_id === null && (await countActiveAdminTokens(trx, context.store.capabilities)) <= 1) {
      throw new ServiceError('conflict', 'this is the last admin token; create another admin token before revoking it');
    }
    await markRevoked(trx, input.id, context.now());
    // Its settings-area sessions end with it (docs/settings.md).
    await deleteSessionsOfToken(trx, input.id);
    const revoked = await findTokenListing(trx, input.id);
    if (!revoked) throw new Error(`token ${input.id} vanished while it was revoked`);
    return toTokenInfo(revoked);
  });
}
