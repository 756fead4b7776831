import { ServiceError } from '@svc/protocol';
import type { MemberRole } from '@svc/protocol/api';
import { findMemberListing, membershipsOfPerson, updateMember } from '../store/queries/members.js';
import { recordAudit } from './audit-log.js';
import { isPerson, type OperationContext, type PersonPrincipal, type Principal } from './context.js';
import { memberName, memberObject, normalizeName } from './member-info.js';

/** The signed-in person's account page (docs/members.md): their name in each workspace the session sees. */
export interface Account {
  readonly email: string;
  /** The name they gave themselves (or were given) in every one of those workspaces, when it is the same everywhere; else null. */
  readonly name: string | null;
  /** Their names differ between those workspaces. */
  readonly namesDiffer: boolean;
  readonly workspaces: readonly { workspace: string; role: MemberRole; name: string; canManage: boolean }[];
  /** The session sees one workspace only: it was started by an invite link the inviter saw too. */
  readonly limited: boolean;
}

function requirePerson(principal: Principal): PersonPrincipal {
  if (!isPerson(principal)) throw new ServiceError('not_found', 'a token has no account: accounts are for people invited as members');
  return principal;
}

/** The person's memberships that the session sees, with their workspace and name. */
async function sessionMemberships(context: OperationContext, person: PersonPrincipal) {
  const seen = new Set(person.memberships.map((membership) => membership.memberId));
  return (await membershipsOfPerson(context.store.db, person.personId)).filter((listing) => seen.has(listing.member.id));
}

export async function accountOf(context: OperationContext, principal: Principal): Promise<Account> {
  const person = requirePerson(principal);
  const listings = await sessionMemberships(context, person);
  const workspaces = listings.map((listing) => ({
    workspace: listing.workspaceSlug,
    role: listing.member.role,
    name: memberName(listing.member.name, person.email),
    canManage: listing.member.role === 'owner',
  }));
  const names = new Set(listings.map((listing) => listing.member.name));
  const [only] = names;
  return { email: person.email, name: names.size === 1 ? (only ?? null) : null, namesDiffer: names.size > 1, workspaces, limited: person.limitedTo !== null };
}

/**
 * Sets the person's name in every workspace the session sees; empty shows their email
 * before `@` again. Each rename is audited in its workspace, with the old and new name.
 */
export async function renameAccount(context: OperationContext, principal: Principal, input: { name: string }): Promise<void> {
  const person = requirePerson(principal);
  const name = normalizeName(input.name);
  await context.store.transaction(async (trx) => {
    for (const membership of person.memberships) {
      const listing = await findMemberListing(trx, membership.memberId);
      if (!listing || listing.member.name === name) continue;
      await updateMember(trx, listing.member.id, { name });
      const change = { from: memberName(listing.member.name, person.email), to: memberName(name, person.email) };
      await recordAudit(trx, context, person, { action: 'member.renamed', workspaceId: listing.member.workspace_id, object: memberObject(listing), change });
    }
  });
}
