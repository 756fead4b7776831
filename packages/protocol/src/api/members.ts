import { Type, type Static } from 'typebox';
import { Closed, Id, Ok, Slug, Timestamp } from './common.js';
import { memberNameLimit } from './limits.js';

/**
 * Members of a workspace (docs/members.md): people, with a role. `name` is what they set,
 * else their email before `@`. An invited member becomes `active` when they open their
 * invite link and press Sign in.
 */
export const MemberRole = Type.Union([Type.Literal('owner'), Type.Literal('member')]);
export type MemberRole = Static<typeof MemberRole>;

export const MemberInfo = Closed({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  workspace: Type.String(),
  role: MemberRole,
  status: Type.Union([Type.Literal('invited'), Type.Literal('active')]),
  createdAt: Timestamp,
});
export type MemberInfo = Static<typeof MemberInfo>;

/** `GET /api/cli/members[?workspace=W]`: the members the token may manage. */
export const ListMembersQuery = Closed({ workspace: Type.Optional(Slug) });
export type ListMembersQuery = Static<typeof ListMembersQuery>;
export const ListMembersResponse = Closed({ ok: Ok, members: Type.Array(MemberInfo) });
export type ListMembersResponse = Static<typeof ListMembersResponse>;

/** `POST /api/cli/members` (`svc members invite`). `workspace` may be left out by a workspace token. */
export const InviteMemberRequest = Closed({
  email: Type.String({ maxLength: 320 }),
  name: Type.Optional(Type.String({ maxLength: memberNameLimit })),
  role: Type.Optional(MemberRole),
  workspace: Type.Optional(Slug),
});
export type InviteMemberRequest = Static<typeof InviteMemberRequest>;

export const InviteMemberResponse = Closed({
  ok: Ok,
  member: MemberInfo,
  /** The invite link: valid 7 days, works once; a new invite replaces it. */
  inviteUrl: Type.String(),
});
export type InviteMemberResponse = Static<typeof InviteMemberResponse>;

export const MemberParams = Type.Object({ id: Id });

/** `POST /api/cli/members/:id` (`svc members set ID --role R`). */
export const SetMemberRequest = Closed({ role: MemberRole });
export type SetMemberRequest = Static<typeof SetMemberRequest>;

/** The member as changed, or as it was before `svc members remove`. */
export const MemberResponse = Closed({ ok: Ok, member: MemberInfo });
export type MemberResponse = Static<typeof MemberResponse>;
