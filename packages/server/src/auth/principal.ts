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
}

/**
 * A person signed in to the settings area (by an invite or an email link): a member of
 * every workspace in `memberships`, and of no other. Memberships are read when the session
 * is resumed, so a removal or a role change counts from the next request.
 */
export interface PersonPrincipal {
  readonly kind: 'person';
  readonly personId: string;
  /** The name people see: the one they set, else their email before `@`. */
  readonly name: string;
  readonly email: string;
  readonly memberships: readonly Membership[];
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
