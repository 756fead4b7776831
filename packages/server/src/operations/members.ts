import { ServiceError } from '@svc/protocol';
import type { InviteMemberRequest, MemberInfo, MemberRole } from '@svc/protocol/api';
import { hashToken as hashSecret } from '../auth/token-secrets.js';
import { newId, randomToken } from '../ids.js';
import { deleteMember, findMemberListing, findMemberOf, findPersonByEmail, insertMember, insertPerson, listMembers as queryMembers, setPersonName, updateMember } from '../store/queries/members.js';
import { deleteInviteLinks, deleteSessionsOfPerson, insertPersonLink } from '../store/queries/person-sessions.js';
import { findWorkspaceById } from '../store/queries/projects.js';
import type { WorkspaceRow } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { recordAudit } from './audit-log.js';
import { isPerson, type OperationContext, type Principal } from './context.js';
import { displayName, normalizeEmail, normalizeName, toMemberInfo } from './member-info.js';
import { sendPersonLinkMail } from './person-mail.js';
import { canManagePeople, canSee, requireManagePeople, visibleWorkspaceIds } from './rights.js';
import { workspaceInScope } from './scope.js';

/** An invite link works once, for 7 days (docs/members.md). */
export const inviteLifetimeMs = 7 * 24 * 60 * 60 * 1000;

/** The workspace named, or the one a workspace token belongs to; else `validation_failed`. */
async function workspaceOf(db: Db, principal: Principal, slug: string | undefined): Promise<WorkspaceRow> {
  if (slug !== undefined) return workspaceInScope(db, principal, slug);
  const own = isPerson(principal) ? (principal.memberships.length === 1 ? principal.memberships[0]?.workspaceId : undefined) : principal.workspaceId;
  if (own === undefined || own === null) throw new ServiceError('validation_failed', 'name the workspace (--workspace)', { errors: { workspace: 'is required' } });
  return findWorkspaceById(db, own);
}

/** A member the principal may see, or `not_found`; then `forbidden` unless they may manage members. */
async function manageableMember(db: Db, principal: Principal, id: string) {
  const listing = await findMemberListing(db, id);
  if (!listing || !canSee(principal, listing.member.workspace_id)) throw new ServiceError('not_found', `no member "${id}"`);
  requireManagePeople(principal, listing.member.workspace_id);
  return listing;
}

export interface Invitation {
  readonly member: MemberInfo;
  readonly inviteUrl: string;
}

/**
 * `svc members invite`: makes the person a member (`invited`) and returns a link that
 * works once, for 7 days; emailed too when the server has `--smtp-url`. Inviting an
 * invited member again replaces their link (the old one stops working); an active member
 * is a `conflict`.
 */
export async function inviteMember(context: OperationContext, principal: Principal, input: InviteMemberRequest): Promise<Invitation> {
  const email = normalizeEmail(input.email);
  const name = normalizeName(input.name);
  const secret = randomToken(256);
  const now = context.now();
  const listing = await context.store.transaction(async (trx) => {
    const workspace = await workspaceOf(trx, principal, input.workspace);
    requireManagePeople(principal, workspace.id);
    let person = await findPersonByEmail(trx, email);
    if (!person) {
      person = { id: newId('per', now), email, name, created_at: now };
      await insertPerson(trx, person);
    } else if (person.name === null && name !== null) {
      await setPersonName(trx, person.id, name);
    }
    let member = await findMemberOf(trx, workspace.id, person.id);
    if (member?.status === 'active') throw new ServiceError('conflict', `${email} is already a member of ${workspace.slug}`);
    if (member) {
      await deleteInviteLinks(trx, member.id);
      if (input.role !== undefined && input.role !== member.role) await updateMember(trx, member.id, { role: input.role });
    } else {
      member = { id: newId('mem', now), person_id: person.id, workspace_id: workspace.id, role: input.role ?? 'member', status: 'invited', created_at: now };
      await insertMember(trx, member);
    }
    await insertPersonLink(trx, { idHash: hashSecret(secret), personId: person.id, memberId: member.id, purpose: 'invite', now, expiresAt: now + inviteLifetimeMs });
    await recordAudit(trx, context, principal, { action: 'member.invited', workspaceId: workspace.id, object: { type: 'member', id: member.id } });
    const stored = await findMemberListing(trx, member.id);
    if (!stored) throw new Error(`member ${member.id} vanished while it was invited`);
    return stored;
  });
  const inviteUrl = `${context.urls.baseUrl}/login/invite/${secret}`;
  const inviter = isPerson(principal) ? principal.name : null;
  sendPersonLinkMail(context, { to: email, kind: 'invite', url: inviteUrl, workspace: listing.workspaceSlug, inviter, name: displayName(listing.person) });
  return { member: toMemberInfo(listing), inviteUrl };
}

/** `svc members list`: the members of one workspace, or of every workspace the principal sees. */
export async function listMembers(context: OperationContext, principal: Principal, input: { workspace?: string | undefined }): Promise<MemberInfo[]> {
  const db = context.store.db;
  const workspaceIds = input.workspace === undefined ? visibleWorkspaceIds(principal) : [(await workspaceInScope(db, principal, input.workspace)).id];
  return (await queryMembers(db, workspaceIds)).map(toMemberInfo);
}

/** `svc members set ID --role R`. */
export async function setMemberRole(context: OperationContext, principal: Principal, input: { id: string; role: MemberRole }): Promise<MemberInfo> {
  return context.store.transaction(async (trx) => {
    const listing = await manageableMember(trx, principal, input.id);
    if (listing.member.role === input.role) return toMemberInfo(listing);
    await updateMember(trx, listing.member.id, { role: input.role });
    await recordAudit(trx, context, principal, { action: 'member.role_changed', workspaceId: listing.member.workspace_id, object: { type: 'member', id: listing.member.id } });
    return toMemberInfo({ ...listing, member: { ...listing.member, role: input.role } });
  });
}

/**
 * `svc members remove ID`: the membership and its invite links go, and the person's
 * settings-area sessions end at once (docs/members.md). Returns the member as it was.
 */
export async function removeMember(context: OperationContext, principal: Principal, input: { id: string }): Promise<MemberInfo> {
  return context.store.transaction(async (trx) => {
    const listing = await manageableMember(trx, principal, input.id);
    await deleteMember(trx, listing.member.id);
    await deleteSessionsOfPerson(trx, listing.person.id);
    await recordAudit(trx, context, principal, { action: 'member.removed', workspaceId: listing.member.workspace_id, object: { type: 'member', id: listing.member.id } });
    return toMemberInfo(listing);
  });
}

/** What the members page shows: the workspace's members, and whether the principal may manage them. */
export async function workspaceMembers(context: OperationContext, principal: Principal, input: { workspace: string }): Promise<{ members: MemberInfo[]; canManage: boolean }> {
  const workspace = await workspaceInScope(context.store.db, principal, input.workspace);
  const members = (await queryMembers(context.store.db, [workspace.id])).map(toMemberInfo);
  return { members, canManage: canManagePeople(principal, workspace.id) };
}
