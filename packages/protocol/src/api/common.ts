import { Type, type Static, type TObject, type TProperties } from 'typebox';
import { rateLimitBounds } from '../rate-limit-text.js';

/**
 * Shapes shared by every resource of the private CLI API. Each resource's requests and
 * answers are defined once, in this folder, with TypeBox: the server validates requests
 * and answers with them, the CLI checks answers with them.
 */

/** An object with exactly these properties: any other is refused in a request and a bug in an answer. */
export function Closed<const P extends TProperties>(properties: P): TObject<P> {
  return Type.Object(properties, { additionalProperties: false });
}

/** Workspace and form slugs: the specification's pattern. */
export const Slug = Type.String({ minLength: 1, maxLength: 63, pattern: '^[a-z0-9][a-z0-9-]{0,62}$' });

/** A project's name within its workspace: any non-empty string. */
export const ProjectName = Type.String({ minLength: 1, maxLength: 200 });

/** Identifiers the server makes (`tok_…`, `wh_…`); bounded so path segments stay small. */
export const Id = Type.String({ minLength: 1, maxLength: 100 });

/** An instant as an ISO 8601 string in UTC, e.g. `2026-11-21T10:00:00.000Z`. */
export const Timestamp = Type.String({ minLength: 1 });

export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
export const NullableString = Type.Union([Type.String(), Type.Null()]);
export const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);

/** A listing's `cursor`: the `nextCursor` of the page before, passed back. */
export const PageCursor = Type.Optional(Type.String({ minLength: 1, maxLength: 200 }));

/** `true` in every successful answer. */
export const Ok = Type.Literal(true);

/** Identifies a project in answers. */
export const ProjectRef = Closed({ workspace: Type.String(), project: Type.String() });
export type ProjectRef = Static<typeof ProjectRef>;

/** Path parameters of every route under `/projects/:workspace/:project`. */
export const ProjectParams = Type.Object({ workspace: Slug, project: ProjectName });
export type ProjectParams = Static<typeof ProjectParams>;

/** Path parameters of a route about one thing of a project: `/projects/:workspace/:project/<things>/:id`. */
export const ProjectItemParams = Type.Object({ workspace: Slug, project: ProjectName, id: Id });

/** N requests per window of W seconds (bounds as `svc serve --rate-limit`). */
export const RateLimit = Closed({
  max: Type.Integer({ minimum: rateLimitBounds.max.min, maximum: rateLimitBounds.max.max }),
  windowSeconds: Type.Integer({ minimum: rateLimitBounds.windowSeconds.min, maximum: rateLimitBounds.windowSeconds.max }),
});
export type RateLimit = Static<typeof RateLimit>;

/**
 * A service.json document. Its rules live in @svc/config's JSON Schema (the single source
 * of truth); the server runs that full validation on every document it receives.
 */
export const ServiceConfigDocument = Type.Record(Type.String(), Type.Unknown());
export type ServiceConfigDocument = Static<typeof ServiceConfigDocument>;

/**
 * The body of every failure (docs/form-endpoint.md): a stable code from the error registry, and for
 * the CLI API a message for people. `errors` lists per-field or per-pointer problems of a
 * 422; `retryAfter` comes with 429.
 */
export const ErrorBody = Type.Object({
  ok: Type.Literal(false),
  error: Type.String(),
  message: Type.Optional(Type.String()),
  errors: Type.Optional(Type.Unknown()),
  retryAfter: Type.Optional(Type.Integer()),
  details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type ErrorBody = Static<typeof ErrorBody>;
