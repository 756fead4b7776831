import { ServiceError } from '@svc/protocol';
import type { MemberRole } from '@svc/protocol/api';
import { findPersonById, membershipsOfPerson, setPersonName } from '../store/queries/members.js';
import { isPerson, type OperationContext, type PersonPrincipal, type Principal } from './context.js';
import { displayName, normalizeName } from './member-info.js';

/** The signed-in person's account page (docs/members.md). */
export interface Account {
  readonly name: string;
  /** The name they set or were invited with; null when the email's part is shown. */
  readonly nameSet: string | null;
  readonly email: string;
  readonly workspaces: readonly { workspace: string; role: MemberRole; canManage: boolean }[];
}

function requirePerson(principal: Principal): PersonPrincipal {
  if (!isPerson(principal)) throw new ServiceError('not_found', 'a token has no account: accounts are for people invited as members');
  return principal;
}

export async function accountOf(context: OperationContext, principal: Principal): Promise<Account> {
  const person = requirePerson(principal);
  const row = await findPersonById(context.store.db, person.personId);
  if (!row) throw new ServiceError('unauthorized', 'sign in again');
  const memberships = (await membershipsOfPerson(context.store.db, person.personId)).filter((listing) => listing.member.status === 'active');
  return {
    name: displayName(row),
    nameSet: row.name,
    email: row.email,
    workspaces: memberships.map((listing) => ({ workspace: listing.workspaceSlug, role: listing.member.role, canManage: listing.member.role === 'owner' })),
  };
}

/** Sets the person's name, shown wherever they act; empty shows their email before `@` again. */
export async function renameAccount(context: OperationContext, principal: Principal, input: { name: string }): Promise<void> {
  const person = requirePerson(principal);
  await setPersonName(context.store.db, person.personId, normalizeName(input.name));
}
