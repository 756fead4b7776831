import { Type, type Static } from 'typebox';
import { Ok, Slug, Timestamp } from './common.js';
import { submissionPageSize } from './limits.js';

export const SubmissionState = Type.Union([Type.Literal('inbox'), Type.Literal('spam')]);
export type SubmissionState = Static<typeof SubmissionState>;

export const SubmissionFileInfo = Type.Object(
  { field: Type.String(), name: Type.String(), size: Type.Integer(), contentType: Type.String() },
  { additionalProperties: false },
);

/** A stored submission: its fields as posted, and its files by name. */
export const SubmissionInfo = Type.Object(
  {
    id: Type.String(),
    state: SubmissionState,
    createdAt: Timestamp,
    fields: Type.Record(Type.String(), Type.Unknown()),
    files: Type.Array(SubmissionFileInfo),
  },
  { additionalProperties: false },
);
export type SubmissionInfo = Static<typeof SubmissionInfo>;

/** `GET …/forms/:slug/submissions`: newest first; pass `nextCursor` back as `cursor`. */
export const ListSubmissionsQuery = Type.Object(
  {
    state: Type.Optional(SubmissionState),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: submissionPageSize.max })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type ListSubmissionsQuery = Static<typeof ListSubmissionsQuery>;

export const ListSubmissionsResponse = Type.Object(
  {
    ok: Ok,
    state: SubmissionState,
    submissions: Type.Array(SubmissionInfo),
    /** Opaque; null on the last page. */
    nextCursor: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type ListSubmissionsResponse = Static<typeof ListSubmissionsResponse>;

/**
 * `GET …/forms/:slug/submissions/export`: every submission in one state, oldest first, as
 * NDJSON (`application/x-ndjson`): a `header` line, one `submission` line each, then an
 * `end` line. A stream without its `end` line was cut short. The export is a snapshot: it
 * holds what was stored when it started.
 */
export const ExportQuery = Type.Object({ state: Type.Optional(SubmissionState) }, { additionalProperties: false });
export type ExportQuery = Static<typeof ExportQuery>;

/** Most field columns of an export: the distinct field names one form's submissions may use are not bounded. */
export const maxExportColumns = 200;

export const ExportHeaderLine = Type.Object(
  {
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
  },
  { additionalProperties: false },
);
export type ExportHeaderLine = Static<typeof ExportHeaderLine>;

export const ExportSubmissionLine = Type.Object({ type: Type.Literal('submission'), submission: SubmissionInfo }, { additionalProperties: false });
export type ExportSubmissionLine = Static<typeof ExportSubmissionLine>;

export const ExportEndLine = Type.Object({ type: Type.Literal('end'), count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });
export type ExportEndLine = Static<typeof ExportEndLine>;

export const ExportLine = Type.Union([ExportHeaderLine, ExportSubmissionLine, ExportEndLine]);
export type ExportLine = Static<typeof ExportLine>;

export const ndjsonContentType = 'application/x-ndjson; charset=utf-8';

/** `…/submissions/:id`: one submission of the project, by id. */
export const SubmissionParams = Type.Object({ workspace: Slug, project: Type.String({ minLength: 1, maxLength: 200 }), id: Type.String({ minLength: 1, maxLength: 100 }) });
export type SubmissionParams = Static<typeof SubmissionParams>;

/** `GET …/submissions/:id` (`svc submissions show`). */
export const SubmissionResponse = Type.Object(
  { ok: Ok, submission: Type.Object({ ...SubmissionInfo.properties, form: Type.String() }, { additionalProperties: false }) },
  { additionalProperties: false },
);
export type SubmissionResponse = Static<typeof SubmissionResponse>;

/** `POST …/submissions/:id/move` (`svc submissions move --to`). */
export const MoveSubmissionRequest = Type.Object({ to: SubmissionState }, { additionalProperties: false });
export type MoveSubmissionRequest = Static<typeof MoveSubmissionRequest>;
export const MoveSubmissionResponse = Type.Object(
  { ok: Ok, submission: SubmissionResponse.properties.submission, changed: Type.Boolean() },
  { additionalProperties: false },
);
export type MoveSubmissionResponse = Static<typeof MoveSubmissionResponse>;

/** `DELETE …/submissions/:id` (`svc submissions delete`). */
export const DeleteSubmissionResponse = Type.Object(
  { ok: Ok, deleted: Type.Object({ id: Type.String(), form: Type.String() }, { additionalProperties: false }) },
  { additionalProperties: false },
);
export type DeleteSubmissionResponse = Static<typeof DeleteSubmissionResponse>;

/** `POST …/submissions/erase` (`svc submissions erase --email`). */
export const EraseSubmissionsRequest = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) }, { additionalProperties: false });
export type EraseSubmissionsRequest = Static<typeof EraseSubmissionsRequest>;
export const EraseSubmissionsResponse = Type.Object(
  {
    ok: Ok,
    email: Type.String(),
    /** How many submissions were erased. */
    erased: Type.Integer({ minimum: 0 }),
    submissions: Type.Array(Type.Object({ id: Type.String(), form: Type.String() }, { additionalProperties: false })),
    /** How many Pinpoints requests were erased: those the address sent (their email) or that mention it. */
    erasedRequests: Type.Integer({ minimum: 0 }),
    requests: Type.Array(Type.Object({ id: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type EraseSubmissionsResponse = Static<typeof EraseSubmissionsResponse>;
