import { Type, type Static } from 'typebox';
import { Closed, NullableString, Ok, PageCursor, Slug, Timestamp } from './common.js';
import { submissionPageSize } from './limits.js';

export const SubmissionState = Type.Union([Type.Literal('inbox'), Type.Literal('spam')]);
export type SubmissionState = Static<typeof SubmissionState>;

/** Why a submission is in Spam (docs/form-endpoint.md, "Spam protection"); `manual`: moved there by hand. */
export const SpamReason = Type.Union([Type.Literal('honeypot'), Type.Literal('captcha_unverified'), Type.Literal('links'), Type.Literal('manual')]);
export type SpamReason = Static<typeof SpamReason>;

export const SubmissionFileInfo = Closed({ field: Type.String(), name: Type.String(), size: Type.Integer(), contentType: Type.String() });

/** A stored submission: its fields as posted, and its files by name. */
export const SubmissionInfo = Closed({
  id: Type.String(),
  state: SubmissionState,
  createdAt: Timestamp,
  fields: Type.Record(Type.String(), Type.Unknown()),
  files: Type.Array(SubmissionFileInfo),
  /** Present in Spam: why it is there (absent for spam kept before reasons were). */
  spamReason: Type.Optional(SpamReason),
});
export type SubmissionInfo = Static<typeof SubmissionInfo>;

/** `GET …/forms/:slug/submissions`: newest first; pass `nextCursor` back as `cursor`. */
export const ListSubmissionsQuery = Closed({
  state: Type.Optional(SubmissionState),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: submissionPageSize.max })),
  cursor: PageCursor,
});
export type ListSubmissionsQuery = Static<typeof ListSubmissionsQuery>;

export const ListSubmissionsResponse = Closed({
  ok: Ok,
  state: SubmissionState,
  submissions: Type.Array(SubmissionInfo),
  /** Opaque; null on the last page. */
  nextCursor: NullableString,
});
export type ListSubmissionsResponse = Static<typeof ListSubmissionsResponse>;

/**
 * `GET …/forms/:slug/submissions/export`: every submission in one state, oldest first, as
 * NDJSON (`application/x-ndjson`): a `header` line, one `submission` line each, then an
 * `end` line. A stream without its `end` line was cut short. The export is a snapshot: it
 * holds what was stored when it started.
 */
export const ExportQuery = Closed({ state: Type.Optional(SubmissionState) });
export type ExportQuery = Static<typeof ExportQuery>;

/** Most field columns of an export: the distinct field names one form's submissions may use are not bounded. */
export const maxExportColumns = 200;

export const ExportHeaderLine = Closed({
  type: Type.Literal('header'),
  state: SubmissionState,
  count: Type.Integer({ minimum: 0 }),
  /** Every field name used by the exported submissions, in order of first use. */
  fields: Type.Array(Type.String()),
  /** Every field name that carried files, in order of first use. */
  fileFields: Type.Array(Type.String()),
  /**
   * Present and true when the submissions use more distinct field names than an export
   * has columns (`maxExportColumns`): `fields` and `fileFields` then hold the first of
   * them, and a CSV puts every other field in one `other_fields` column.
   */
  otherFields: Type.Optional(Type.Boolean()),
});
export type ExportHeaderLine = Static<typeof ExportHeaderLine>;

export const ExportSubmissionLine = Closed({ type: Type.Literal('submission'), submission: SubmissionInfo });
export type ExportSubmissionLine = Static<typeof ExportSubmissionLine>;

export const ExportEndLine = Closed({ type: Type.Literal('end'), count: Type.Integer({ minimum: 0 }) });
export type ExportEndLine = Static<typeof ExportEndLine>;

export const ExportLine = Type.Union([ExportHeaderLine, ExportSubmissionLine, ExportEndLine]);
export type ExportLine = Static<typeof ExportLine>;

export const ndjsonContentType = 'application/x-ndjson; charset=utf-8';

/** `…/submissions/:id`: one submission of the project, by id. */
export const SubmissionParams = Type.Object({ workspace: Slug, project: Type.String({ minLength: 1, maxLength: 200 }), id: Type.String({ minLength: 1, maxLength: 100 }) });
export type SubmissionParams = Static<typeof SubmissionParams>;

/** `GET …/submissions/:id` (`svc submissions show`). */
export const SubmissionResponse = Closed({ ok: Ok, submission: Closed({ ...SubmissionInfo.properties, form: Type.String() }) });
export type SubmissionResponse = Static<typeof SubmissionResponse>;

/** `POST …/submissions/:id/move` (`svc submissions move --to`). */
export const MoveSubmissionRequest = Closed({ to: SubmissionState });
export type MoveSubmissionRequest = Static<typeof MoveSubmissionRequest>;
export const MoveSubmissionResponse = Closed({ ok: Ok, submission: SubmissionResponse.properties.submission, changed: Type.Boolean() });
export type MoveSubmissionResponse = Static<typeof MoveSubmissionResponse>;

/** `DELETE …/submissions/:id` (`svc submissions delete`). */
export const DeleteSubmissionResponse = Closed({ ok: Ok, deleted: Closed({ id: Type.String(), form: Type.String() }) });
export type DeleteSubmissionResponse = Static<typeof DeleteSubmissionResponse>;

/** `POST …/submissions/erase` (`svc submissions erase --email`). */
export const EraseSubmissionsRequest = Closed({ email: Type.String({ minLength: 1, maxLength: 254 }) });
export type EraseSubmissionsRequest = Static<typeof EraseSubmissionsRequest>;
export const EraseSubmissionsResponse = Closed({
  ok: Ok,
  email: Type.String(),
  /** How many submissions were erased. */
  erased: Type.Integer({ minimum: 0 }),
  submissions: Type.Array(Closed({ id: Type.String(), form: Type.String() })),
  /** How many Pinpoints requests were erased: those the address sent (their email) or that mention it. */
  erasedRequests: Type.Integer({ minimum: 0 }),
  requests: Type.Array(Closed({ id: Type.String() })),
});
export type EraseSubmissionsResponse = Static<typeof EraseSubmissionsResponse>;
