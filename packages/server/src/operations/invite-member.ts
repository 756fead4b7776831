import { ServiceError } from '@svc/protocol';
import type { InviteMemberRequest, MemberInfo } from '@svc/protocol/api';
import { hashToken as hashSecret } from '../auth/token-secrets.js';
import { newId, randomToken } from '../lib/ids.js';
import { findMemberListing, findMemberOf, findPersonByEmail, insertMember, insertPerson, updateMember, type MemberListing } from '../store/queries/members.js';
import { deleteLinksOfMember, insertLink } from '../store/queries/one-time-links.js';
import { findWorkspaceById } from '../store/queries/projects.js';
import type { WorkspaceRow } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { recordAudit } from './audit-log.js';
import { isPerson, membershipIn, type OperationContext, type Principal } from './context.js';
import { memberName, memberObject, normalizeEmail, normalizeName, toMemberInfo } from './member-info.js';
import { queuePersonLinkMail } from './person-mail.js';
import { requireManagePeople } from './rights.js';
import { workspaceInScope } from './scope.js';

/** An invite link works once, for 7 days (docs/members.md). */
export const inviteLifetimeMs = 7 * 24 * 60 * 60 * 1000;

export interface Invitation {
  readonly member: MemberInfo;
  /** The link shown to whoever invited: it signs in to this workspace only, and only a person who belongs to no other. */
  readonly inviteUrl: string;
}

/** The workspace named, or the one a workspace token belongs to; else `validation_failed`. */
async function workspaceOf(db: Db, principal: Principal, slug: string | undefined): Promise<WorkspaceRow> {
  if (slug !== undefined) return workspaceInScope(db, principal, slug);
  const own = isPerson(principal) ? (principal.memberships.length === 1 ? principal.memberships[0]?.workspaceId : undefined) : principal.workspaceId;
  if (own === undefined || own === null) throw new ServiceError('validation_failed', 'name the workspace (--workspace)', { errors: { workspace: 'is required' } });
  return findWorkspaceById(db, own);
}

/** The workspace the principal may invite to; `conflict` when the address is an active member of it already. */
async function invitingWorkspace(db: Db, principal: Principal, slug: string | undefined, email: string): Promise<WorkspaceRow> {
  const workspace = await workspaceOf(db, principal, slug);
  requireManagePeople(principal, workspace.id);
  const person = await findPersonByEmail(db, email);
  const member = person && (await findMemberOf(db, workspace.id, person.id));
  if (member?.status === 'active') throw new ServiceError('conflict', `${email} is already a member of ${workspace.slug}`);
  return workspace;
}

/**
 * `svc members invite`: makes the person a member (`invited`) of the workspace, with the
 * name and role given, and makes two links that work once, for 7 days: one for the answer
 * (the inviter sees it) and, when the server has `--smtp-url`, one emailed to the address.
 * Only the emailed one proves control of the address and signs in as the person; the shown
 * one signs in to this workspace only, a person who belongs to no other (docs/members.md).
 * Inviting an invited member again replaces both (the old ones stop working); an active
 * member is a `conflict`. Each invite counts against the workspace's and the address's limits.
 */
export async function inviteMember(context: OperationContext, principal: Principal, input: InviteMemberRequest): Promise<Invitation> {
  const email = normalizeEmail(input.email);
  const name = input.name === undefined ? undefined : normalizeName(input.name);
  // Counted only once the principal may invite here: nobody spends another workspace's allowance.
  await context.invites.count((await invitingWorkspace(context.store.db, principal, input.workspace, email)).id, email);
  const shown = randomToken(256);
  const emailed = context.mail ? randomToken(256) : null;
  const now = context.now();
  const urlOf = (secret: string) => `${context.urls.baseUrl}/login/invite/${secret}`;
  const listing = await context.store.transaction(async (trx) => {
    const workspace = await invitingWorkspace(trx, principal, input.workspace, email);
    let person = await findPersonByEmail(trx, email);
    if (!person) {
      person = { id: newId('per', now), email, created_at: now };
      await insertPerson(trx, person);
    }
    let member = await findMemberOf(trx, workspace.id, person.id);
    if (member) {
      await deleteLinksOfMember(trx, member.id);
      const before = await findMemberListing(trx, member.id);
      if (before) await changeInvited(trx, context, principal, before, { role: input.role, name });
    } else {
      member = { id: newId('mem', now), person_id: person.id, workspace_id: workspace.id, role: input.role ?? 'member', status: 'invited', name: name ?? null, created_at: now };
      await insertMember(trx, member);
    }
    const link = { purpose: 'invite' as const, memberId: member.id, now, expiresAt: now + inviteLifetimeMs };
    await insertLink(trx, { ...link, idHash: hashSecret(shown), shown: true });
    if (emailed !== null) await insertLink(trx, { ...link, idHash: hashSecret(emailed) });
    const stored = await findMemberListing(trx, member.id);
    if (!stored) throw new Error(`member ${member.id} vanished while it was invited`);
    await recordAudit(trx, context, principal, { action: 'member.invited', workspaceId: workspace.id, object: memberObject(stored) });
    if (emailed !== null) {
      const inviter = isPerson(principal) ? (membershipIn(principal, stored.member.workspace_id)?.name ?? null) : null;
      const invitation = { to: email, kind: 'invite' as const, url: urlOf(emailed), workspace: stored.workspaceSlug, inviter, name: memberName(stored.member.name, email) };
      await queuePersonLinkMail(trx, context, invitation, link.expiresAt);
    }
    return stored;
  });
  context.mail?.outbox.wake();
  return { member: toMemberInfo(listing), inviteUrl: urlOf(shown) };
}

/** A new invite of an invited member may change their role and their name here; each change is audited. */
async function changeInvited(trx: Db, context: OperationContext, principal: Principal, listing: MemberListing, changes: { role: InviteMemberRequest['role']; name: string | null | undefined }): Promise<void> {
  const { member, person } = listing;
  const workspaceId = member.workspace_id;
  if (changes.role !== undefined && changes.role !== member.role) {
    await updateMember(trx, member.id, { role: changes.role });
    await recordAudit(trx, context, principal, { action: 'member.role_changed', workspaceId, object: memberObject(listing), change: { from: member.role, to: changes.role } });
  }
  if (changes.name !== undefined && changes.name !== member.name) {
    await updateMember(trx, member.id, { name: changes.name });
    const change = { from: memberName(member.name, person.email), to: memberName(changes.name, person.email) };
    await recordAudit(trx, context, principal, { action: 'member.renamed', workspaceId, object: memberObject(listing), change });
  }
}
