/**
 * Who is acting: a token or a person (docs/members.md). Rights are decided from it in one
 * place (`operations/rights.ts`), never by reading its fields elsewhere.
 */
export type Principal = TokenPrincipal | PersonPrincipal;

/**
 * A token. An admin token (`workspaceId === null`) sees every workspace; a workspace token
 * sees and changes only its workspace, and everything outside it answers `not_found`, as if
 * it did not exist. `kind` may be left out: a principal without one is a token.
 */
export interface TokenPrincipal {
  readonly kind?: 'token';
  readonly tokenId: string;
  readonly workspaceId: string | null;
  /** The token's `--name`, shown wherever it acted; absent where it was not looked up. */
  readonly name?: string;
  /** The client address of the request acting (under `--trust-proxy`), for the audit log; absent outside a request. */
  readonly ip?: string | null | undefined;
}

/** A workspace role of a member (docs/members.md). */
export type MemberRole = 'owner' | 'member';

/** One workspace a person belongs to, as an active member. */
export interface Membership {
  readonly memberId: string;
  readonly workspaceId: string;
  readonly role: MemberRole;
  /** Their name in this workspace, as people see it (a member's name is per membership). */
  readonly name: string;
}

/**
 * A person signed in to the settings area (by an invite or an email link): a member of
 * every workspace in `memberships`, and of no other. Memberships are read when the session
 * is resumed, so a removal or a role change counts from the next request.
 */
export interface PersonPrincipal {
  readonly kind: 'person';
  readonly personId: string;
  readonly email: string;
  /**
   * What the session may see: the person's active memberships, or only the one of
   * `limitedTo` for a session started by an invite link the inviter has seen too.
   */
  readonly memberships: readonly Membership[];
  /** The workspace a session started by a shown invite link is limited to; null: every membership (the address was proved). */
  readonly limitedTo: string | null;
  /** The client address of the request acting, for the audit log. */
  readonly ip?: string | null | undefined;
}

export const isPerson = (principal: Principal): principal is PersonPrincipal => principal.kind === 'person';

/** An admin token: everything, every workspace. A person is never an admin. */
export const isAdmin = (principal: Principal): boolean => !isPerson(principal) && principal.workspaceId === null;

/** The principal's membership of a workspace, if it is a person who belongs to it. */
export function membershipIn(principal: Principal, workspaceId: string): Membership | undefined {
  return isPerson(principal) ? principal.memberships.find((membership) => membership.workspaceId === workspaceId) : undefined;
}
