import { ServiceError } from '@svc/protocol';
import { findTokenListing } from '../store/queries/tokens.js';
import type { Db } from '../store/store.js';
import { isAdmin, isPerson, membershipIn, type Principal, type TokenPrincipal } from './context.js';

/**
 * Who may do what (docs/members.md), decided here and nowhere else: admin tokens
 * everything; a workspace's tokens and its `owner` members everything in that workspace,
 * members and tokens included; `member`s everything in it except members and tokens.
 */

/** Whether the principal may see (and change) the workspace at all. */
export function canSee(principal: Principal, workspaceId: string): boolean {
  if (isPerson(principal)) return membershipIn(principal, workspaceId) !== undefined;
  return principal.workspaceId === null || principal.workspaceId === workspaceId;
}

/** Whether the principal may manage the workspace's members and tokens. */
export function canManagePeople(principal: Principal, workspaceId: string): boolean {
  if (isPerson(principal)) return membershipIn(principal, workspaceId)?.role === 'owner';
  return canSee(principal, workspaceId);
}

/** `forbidden` unless the principal may manage the workspace's members and tokens. */
export function requireManagePeople(principal: Principal, workspaceId: string): void {
  if (!canManagePeople(principal, workspaceId)) throw new ServiceError('forbidden', 'only owners and tokens of this workspace can manage its members and tokens');
}

/** Whether the principal manages the tokens of any workspace (the Tokens page is offered). */
export function managesAnyTokens(principal: Principal): boolean {
  const visible = visibleWorkspaceIds(principal);
  return visible === null || visible.some((workspaceId) => canManagePeople(principal, workspaceId));
}

/** `forbidden` unless the principal is an admin token (what spans workspaces: admin tokens). */
export function requireAdmin(principal: Principal, what: string): void {
  if (!isAdmin(principal)) throw new ServiceError('forbidden', `only an admin token can ${what}`);
}

/** The workspaces the principal sees: null for every workspace (an admin token). */
export function visibleWorkspaceIds(principal: Principal): readonly string[] | null {
  if (isPerson(principal)) return principal.memberships.map((membership) => membership.workspaceId);
  return principal.workspaceId === null ? null : [principal.workspaceId];
}

/** The token acting, for what only a token does (the CLI API's `svc open`, `svc login`). */
export function requireToken(principal: Principal): TokenPrincipal {
  if (isPerson(principal)) throw new ServiceError('forbidden', 'this needs a token; people sign in to the settings area');
  return principal;
}

/** The name shown wherever the principal acted in a workspace: a member's name there, or a token's `--name`. */
export async function actingName(db: Db, principal: Principal, workspaceId: string | null): Promise<string> {
  if (isPerson(principal)) return (workspaceId === null ? undefined : membershipIn(principal, workspaceId)?.name) ?? emailName(principal.email);
  return principal.name ?? (await findTokenListing(db, principal.tokenId))?.token.name ?? 'unknown';
}

/** The part of an address before `@`: a member's name until one is given. */
export function emailName(email: string): string {
  return email.slice(0, email.lastIndexOf('@'));
}
