import { Type, type Static } from 'typebox';
import { auditPageSize } from '../audit-actions.js';
import { Ok, ProjectName, Slug, Timestamp } from './common.js';

/**
 * One entry of the audit log (docs/privacy.md): who did what, when, in which workspace and
 * project, to which object, from which address. Never a submitted field, secret or token.
 */
export const AuditEntry = Type.Object(
  {
    id: Type.String(),
    at: Timestamp,
    actor: Type.Object(
      {
        type: Type.Union([Type.Literal('token'), Type.Literal('member'), Type.Literal('system')]),
        id: Type.String(),
        name: Type.String(),
      },
      { additionalProperties: false },
    ),
    action: Type.String(),
    workspace: Type.Union([Type.String(), Type.Null()]),
    project: Type.Union([Type.String(), Type.Null()]),
    object: Type.Union([Type.Object({ type: Type.String(), id: Type.String() }, { additionalProperties: false }), Type.Null()]),
    ip: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type AuditEntry = Static<typeof AuditEntry>;

/**
 * `GET /api/cli/audit-log` (`svc audit-log`): newest first. `action` and `since` are checked
 * by the operation, so a wrong one is `validation_failed` naming the field.
 */
export const ListAuditLogQuery = Type.Object(
  {
    workspace: Type.Optional(Slug),
    project: Type.Optional(ProjectName),
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    since: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: auditPageSize.max })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type ListAuditLogQuery = Static<typeof ListAuditLogQuery>;

export const ListAuditLogResponse = Type.Object(
  { ok: Ok, entries: Type.Array(AuditEntry), nextCursor: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);
export type ListAuditLogResponse = Static<typeof ListAuditLogResponse>;
