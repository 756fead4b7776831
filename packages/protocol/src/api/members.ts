import { Type, type Static } from 'typebox';
import { Id, Ok, Slug, Timestamp } from './common.js';
import { memberNameLimit } from './limits.js';

/**
 * Members of a workspace (docs/members.md): people, with a role. `name` is what they set,
 * else their email before `@`. An invited member becomes `active` when they open their
 * invite link and press Sign in.
 */
export const MemberRole = Type.Union([Type.Literal('owner'), Type.Literal('member')]);
export type MemberRole = Static<typeof MemberRole>;

export const MemberInfo = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    workspace: Type.String(),
    role: MemberRole,
    status: Type.Union([Type.Literal('invited'), Type.Literal('active')]),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);
export type MemberInfo = Static<typeof MemberInfo>;

/** `GET /api/cli/members[?workspace=W]`: the members the token may manage. */
export const ListMembersQuery = Type.Object({ workspace: Type.Optional(Slug) }, { additionalProperties: false });
export type ListMembersQuery = Static<typeof ListMembersQuery>;
export const ListMembersResponse = Type.Object({ ok: Ok, members: Type.Array(MemberInfo) }, { additionalProperties: false });
export type ListMembersResponse = Static<typeof ListMembersResponse>;

/** `POST /api/cli/members` (`svc members invite`). `workspace` may be left out by a workspace token. */
export const InviteMemberRequest = Type.Object(
  {
    email: Type.String({ maxLength: 320 }),
    name: Type.Optional(Type.String({ maxLength: memberNameLimit })),
    role: Type.Optional(MemberRole),
    workspace: Type.Optional(Slug),
  },
  { additionalProperties: false },
);
export type InviteMemberRequest = Static<typeof InviteMemberRequest>;

export const InviteMemberResponse = Type.Object(
  {
    ok: Ok,
    member: MemberInfo,
    /** The invite link: valid 7 days, works once; a new invite replaces it. */
    inviteUrl: Type.String(),
  },
  { additionalProperties: false },
);
export type InviteMemberResponse = Static<typeof InviteMemberResponse>;

export const MemberParams = Type.Object({ id: Id });

/** `POST /api/cli/members/:id` (`svc members set ID --role R`). */
export const SetMemberRequest = Type.Object({ role: MemberRole }, { additionalProperties: false });
export type SetMemberRequest = Static<typeof SetMemberRequest>;

/** The member as changed, or as it was before `svc members remove`. */
export const MemberResponse = Type.Object({ ok: Ok, member: MemberInfo }, { additionalProperties: false });
export type MemberResponse = Static<typeof MemberResponse>;
