import { Type, type Static } from 'typebox';
import { Id, Ok, ProjectName, Slug, Timestamp } from './common.js';
import { requestPageSize, requestReplyLimit } from './limits.js';

/** The Pinpoints requests inbox (docs/pinpoints.md): what visitors sent through the widget. */
export const RequestStatus = Type.Union([Type.Literal('open'), Type.Literal('resolved'), Type.Literal('spam')]);
export type RequestStatus = Static<typeof RequestStatus>;

export const PinpointsEnvironment = Type.Union([Type.Literal('production'), Type.Literal('staging'), Type.Literal('development')]);

export const RequestReplyInfo = Type.Object(
  { id: Type.String(), author: Type.String(), message: Type.String(), createdAt: Timestamp },
  { additionalProperties: false },
);
export type RequestReplyInfo = Static<typeof RequestReplyInfo>;

/** A rectangle in CSS pixels of the visitor's viewport; x and y are negative for an element partly out of view. */
export const ElementBox = Type.Object({ x: Type.Integer(), y: Type.Integer(), width: Type.Integer({ minimum: 1 }), height: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });
export type ElementBox = Static<typeof ElementBox>;

export const RequestInfo = Type.Object(
  {
    id: Type.String(),
    status: RequestStatus,
    environment: PinpointsEnvironment,
    url: Type.String(),
    selector: Type.Union([Type.String(), Type.Null()]),
    comment: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
    viewport: Type.Union([Type.String(), Type.Null()]),
    /** The picked element's rectangle in CSS pixels of the viewport, the screenshot's frame; null when none. */
    elementBox: Type.Union([ElementBox, Type.Null()]),
    userAgent: Type.Union([Type.String(), Type.Null()]),
    /** Null where the project does not keep visitor IPs (`pinpoints.storeIp: false`). */
    ip: Type.Union([Type.String(), Type.Null()]),
    screenshot: Type.Union([
      Type.Object({ size: Type.Integer(), contentType: Type.Literal('image/png'), sha256: Type.String() }, { additionalProperties: false }),
      Type.Null(),
    ]),
    screenshotError: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    replies: Type.Array(RequestReplyInfo),
  },
  { additionalProperties: false },
);
export type RequestInfo = Static<typeof RequestInfo>;

/** `GET …/requests`: newest first; `all` is open and resolved (not spam). */
export const ListRequestsQuery = Type.Object(
  {
    status: Type.Optional(Type.Union([RequestStatus, Type.Literal('all')])),
    environment: Type.Optional(PinpointsEnvironment),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: requestPageSize.max })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type ListRequestsQuery = Static<typeof ListRequestsQuery>;

export const ListRequestsResponse = Type.Object(
  { ok: Ok, requests: Type.Array(RequestInfo), nextCursor: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);
export type ListRequestsResponse = Static<typeof ListRequestsResponse>;

export const RequestParams = Type.Object({ workspace: Slug, project: ProjectName, id: Id });
export type RequestParams = Static<typeof RequestParams>;

export const RequestResponse = Type.Object({ ok: Ok, request: RequestInfo }, { additionalProperties: false });
export type RequestResponse = Static<typeof RequestResponse>;

/** `POST …/requests/:id/replies` (`svc requests reply`). */
export const ReplyRequest = Type.Object({ message: Type.String({ minLength: 1, maxLength: requestReplyLimit }) }, { additionalProperties: false });
export type ReplyRequest = Static<typeof ReplyRequest>;

/** `POST …/requests/:id/resolve` and `/reopen`: `changed` is false when it already was. */
export const RequestChangeResponse = Type.Object({ ok: Ok, request: RequestInfo, changed: Type.Boolean() }, { additionalProperties: false });
export type RequestChangeResponse = Static<typeof RequestChangeResponse>;

/** `GET …/pinpoints` (`svc pinpoints snippet`): the widget's key, tag and where it shows. */
export const PinpointsResponse = Type.Object(
  {
    ok: Ok,
    key: Type.String(),
    scriptUrl: Type.String(),
    snippet: Type.String(),
    enabled: Type.Object({ production: Type.Boolean(), staging: Type.Boolean(), development: Type.Boolean() }, { additionalProperties: false }),
    redact: Type.Array(Type.String()),
    storeIp: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type PinpointsResponse = Static<typeof PinpointsResponse>;

export const RequestCounts = Type.Object({ open: Type.Integer(), resolved: Type.Integer(), spam: Type.Integer() }, { additionalProperties: false });
export type RequestCounts = Static<typeof RequestCounts>;

/** `DELETE …/requests/:id` (`svc requests delete`): the request, its replies, its screenshot and every copy its events kept. */
export const DeleteRequestResponse = Type.Object({ ok: Ok, deleted: Type.Object({ id: Type.String() }, { additionalProperties: false }) }, { additionalProperties: false });
export type DeleteRequestResponse = Static<typeof DeleteRequestResponse>;

/** The project's requests inbox settings (`svc requests set`): how long requests are kept; null until deleted. */
export const RequestSettings = Type.Object({ retentionSeconds: Type.Union([Type.Integer(), Type.Null()]) }, { additionalProperties: false });
export type RequestSettings = Static<typeof RequestSettings>;

/** `PATCH …/requests-settings`: what is left out keeps its value. */
export const RequestSettingsRequest = Type.Object({ retentionSeconds: Type.Optional(Type.Union([Type.Integer(), Type.Null()])) }, { additionalProperties: false });
export type RequestSettingsRequest = Static<typeof RequestSettingsRequest>;

export const RequestSettingsResponse = Type.Object({ ok: Ok, settings: RequestSettings, changed: Type.Boolean() }, { additionalProperties: false });
export type RequestSettingsResponse = Static<typeof RequestSettingsResponse>;
