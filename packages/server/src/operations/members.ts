import { ServiceError } from '@svc/protocol';
import type { MemberInfo, MemberRole } from '@svc/protocol/api';
import { activeOwnerIds, deleteMember, findMemberListing, listMembers as queryMembers, updateMember, type MemberListing } from '../store/queries/members.js';
import { deleteSessionsLimitedTo } from '../store/queries/sessions.js';
import type { Db } from '../store/store.js';
import { recordAudit } from './audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { memberObject, toMemberInfo } from './member-info.js';
import { canManagePeople, canSee, requireManagePeople, visibleWorkspaceIds } from './rights.js';
import { workspaceInScope } from './scope.js';

export { inviteLifetimeMs, inviteMember, type Invitation } from './invite-member.js';

/** A member the principal may see, or `not_found`; then `forbidden` unless they may manage members. */
async function manageableMember(db: Db, principal: Principal, id: string): Promise<MemberListing> {
  const listing = await findMemberListing(db, id);
  if (!listing || !canSee(principal, listing.member.workspace_id)) throw new ServiceError('not_found', `no member "${id}"`);
  requireManagePeople(principal, listing.member.workspace_id);
  return listing;
}

/**
 * `last_owner` when the member is the workspace's last active owner: a workspace that has an
 * owner keeps one (docs/members.md). The owners are locked while the change is made.
 */
async function refuseLastOwner(trx: Db, context: OperationContext, listing: MemberListing, doing: string): Promise<void> {
  if (listing.member.role !== 'owner' || listing.member.status !== 'active') return;
  const owners = await activeOwnerIds(trx, context.store.capabilities, listing.member.workspace_id);
  if (owners.length === 1 && owners[0] === listing.member.id) {
    throw new ServiceError('last_owner', `${listing.person.email} is the last owner of ${listing.workspaceSlug}: make another member owner before ${doing} them`);
  }
}

/** `svc members list`: the members of one workspace, or of every workspace the principal sees. */
export async function listMembers(context: OperationContext, principal: Principal, input: { workspace?: string | undefined }): Promise<MemberInfo[]> {
  const db = context.store.db;
  const workspaceIds = input.workspace === undefined ? visibleWorkspaceIds(principal) : [(await workspaceInScope(db, principal, input.workspace)).id];
  return (await queryMembers(db, workspaceIds)).map(toMemberInfo);
}

/** `svc members set ID --role R`; the last owner stays one (`last_owner`). */
export async function setMemberRole(context: OperationContext, principal: Principal, input: { id: string; role: MemberRole }): Promise<MemberInfo> {
  return context.store.transaction(async (trx) => {
    const listing = await manageableMember(trx, principal, input.id);
    if (listing.member.role === input.role) return toMemberInfo(listing);
    await refuseLastOwner(trx, context, listing, 'demoting');
    await updateMember(trx, listing.member.id, { role: input.role });
    const change = { from: listing.member.role, to: input.role };
    await recordAudit(trx, context, principal, { action: 'member.role_changed', workspaceId: listing.member.workspace_id, object: memberObject(listing), change });
    return toMemberInfo({ ...listing, member: { ...listing.member, role: input.role } });
  });
}

/**
 * `svc members remove ID`: the membership and its invite links go, and with them the
 * person's access to this workspace, at once; their sessions stay for their other
 * workspaces, and those that could see only this one end (docs/members.md). The last owner
 * stays (`last_owner`). Returns the member as it was.
 */
export async function removeMember(context: OperationContext, principal: Principal, input: { id: string }): Promise<MemberInfo> {
  return context.store.transaction(async (trx) => {
    const listing = await manageableMember(trx, principal, input.id);
    await refuseLastOwner(trx, context, listing, 'removing');
    await deleteMember(trx, listing.member.id);
    await deleteSessionsLimitedTo(trx, listing.person.id, listing.member.workspace_id);
    await recordAudit(trx, context, principal, { action: 'member.removed', workspaceId: listing.member.workspace_id, object: memberObject(listing) });
    return toMemberInfo(listing);
  });
}

/** What the members page shows: the workspace's members, and whether the principal may manage them. */
export async function workspaceMembers(context: OperationContext, principal: Principal, input: { workspace: string }): Promise<{ members: MemberInfo[]; canManage: boolean }> {
  const workspace = await workspaceInScope(context.store.db, principal, input.workspace);
  const members = (await queryMembers(context.store.db, [workspace.id])).map(toMemberInfo);
  return { members, canManage: canManagePeople(principal, workspace.id) };
}
