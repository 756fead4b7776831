import { Type, type Static } from 'typebox';
import { auditPageSize } from '../audit-actions.js';
import { Closed, NullableString, Ok, PageCursor, ProjectName, Slug, Timestamp } from './common.js';

/**
 * One entry of the audit log (docs/privacy.md): who did what, when, in which workspace and
 * project, to which object, from which address. Never a submitted field, secret or token.
 * `object.name` is the object's name when it changed (a member's email, a token's name),
 * where one is kept; `change` is what a change of one value (a role, a name) went from and to.
 */
export const AuditEntry = Closed({
  id: Type.String(),
  at: Timestamp,
  actor: Closed({
    type: Type.Union([Type.Literal('token'), Type.Literal('member'), Type.Literal('system')]),
    id: Type.String(),
    name: Type.String(),
  }),
  action: Type.String(),
  workspace: NullableString,
  project: NullableString,
  object: Type.Union([Closed({ type: Type.String(), id: Type.String(), name: Type.Optional(Type.String()) }), Type.Null()]),
  change: Type.Optional(Closed({ from: NullableString, to: NullableString })),
  ip: NullableString,
});
export type AuditEntry = Static<typeof AuditEntry>;

/**
 * `GET /api/cli/audit-log` (`svc audit-log`): newest first. `action` and `since` are checked
 * by the operation, so a wrong one is `validation_failed` naming the field.
 */
export const ListAuditLogQuery = Closed({
  workspace: Type.Optional(Slug),
  project: Type.Optional(ProjectName),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  since: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: auditPageSize.max })),
  cursor: PageCursor,
});
export type ListAuditLogQuery = Static<typeof ListAuditLogQuery>;

export const ListAuditLogResponse = Closed({ ok: Ok, entries: Type.Array(AuditEntry), nextCursor: NullableString });
export type ListAuditLogResponse = Static<typeof ListAuditLogResponse>;
