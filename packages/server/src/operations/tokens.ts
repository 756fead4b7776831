import { ServiceError } from '@svc/protocol';
import type { TokenInfo, WhoamiResponse } from '@svc/protocol/api';
import { generateToken, hashToken } from '../auth/token-secrets.js';
import { findWorkspaceBySlug, listWorkspaceSlugs, workspaceSlugsOf } from '../store/queries/projects.js';
import type { WorkspaceRow } from '../store/schema.js';
import { deleteSessionsOfToken } from '../store/queries/sessions.js';
import { countActiveAdminTokens, findTokenListing, insertToken, listTokens as queryTokens, revokeToken as markRevoked, type TokenListing } from '../store/queries/tokens.js';
import { recordAudit } from './audit-log.js';
import { isAdmin, type OperationContext, type Principal } from './context.js';
import { canManagePeople, canSee, requireAdmin, requireManagePeople, requireToken, visibleWorkspaceIds } from './rights.js';
import { workspaceInScope } from './scope.js';
import { isoTime, isoTimeOrNull } from '../lib/iso-time.js';

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
 * Its scope is said, never assumed: `workspace` (which must exist, so that a typo makes no
 * token for an empty workspace) or `admin` (every workspace, token management). Neither,
 * or both, is `validation_failed` (docs/cli.md#svc-tokens). Only an admin token makes admin
 * tokens; owners and a workspace's tokens make tokens of their own workspace only.
 */
export async function createToken(
  context: OperationContext,
  principal: Principal,
  input: { name?: string | undefined; workspace?: string | undefined; admin?: boolean | undefined },
): Promise<{ token: TokenInfo; secret: string }> {
  const admin = input.admin === true;
  if (admin === (input.workspace !== undefined)) {
    const problem = admin ? 'an admin token sees every workspace: give a workspace or admin, not both' : 'give the workspace the token is for, or admin for a server-wide token';
    throw new ServiceError('validation_failed', problem, { errors: { workspace: problem } });
  }
  if (admin) requireAdmin(principal, 'make admin tokens');
  const secret = generateToken();
  const now = context.now();
  const listing = await context.store.transaction(async (trx) => {
    let workspace: WorkspaceRow | null = null;
    if (input.workspace !== undefined) {
      if (isAdmin(principal)) {
        const found = await findWorkspaceBySlug(trx, input.workspace);
        if (found === undefined) throw new ServiceError('not_found', `no workspace "${input.workspace}": \`svc init\` creates one with its first project`);
        workspace = found;
      } else {
        workspace = await workspaceInScope(trx, principal, input.workspace);
        requireManagePeople(principal, workspace.id);
      }
    }
    const name = input.name ?? (workspace ? `${workspace.slug} token` : 'admin token');
    const token = await insertToken(trx, { name, tokenHash: hashToken(secret), workspaceId: workspace?.id ?? null }, now);
    await recordAudit(trx, context, principal, { action: 'token.created', workspaceId: workspace?.id ?? null, object: { type: 'token', id: token.id, name } });
    return { token, workspaceSlug: workspace?.slug ?? null };
  });
  return { token: toTokenInfo(listing), secret };
}

/** The workspaces the principal may make tokens for, by slug: the tokens page's list. */
export async function listTokenWorkspaces(context: OperationContext, principal: Principal): Promise<string[]> {
  const managed = managedWorkspaces(principal);
  if (managed === null) return listWorkspaceSlugs(context.store.db);
  return workspaceSlugsOf(context.store.db, managed);
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
    await recordAudit(trx, context, principal, { action: 'token.revoked', workspaceId: listing.token.workspace_id, object: { type: 'token', id: input.id, name: listing.token.name } });
    const revoked = await findTokenListing(trx, input.id);
    if (!revoked) throw new Error(`token ${input.id} vanished while it was revoked`);
    return toTokenInfo(revoked);
  });
}
