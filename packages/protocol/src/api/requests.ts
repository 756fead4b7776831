import { Type, type Static } from 'typebox';
import { Closed, NullableInteger, NullableString, Ok, PageCursor, ProjectItemParams, Timestamp } from './common.js';
import { requestPageSize, requestReplyLimit } from './limits.js';

/** The Pinpoints requests inbox (docs/pinpoints.md): what visitors sent through the widget. */
export const RequestStatus = Type.Union([Type.Literal('open'), Type.Literal('resolved'), Type.Literal('spam')]);
export type RequestStatus = Static<typeof RequestStatus>;

export const PinpointsEnvironment = Type.Union([Type.Literal('production'), Type.Literal('staging'), Type.Literal('development')]);

export const RequestReplyInfo = Closed({ id: Type.String(), author: Type.String(), message: Type.String(), createdAt: Timestamp });
export type RequestReplyInfo = Static<typeof RequestReplyInfo>;

/** A rectangle in CSS pixels of the visitor's viewport; x and y are negative for an element partly out of view. */
export const ElementBox = Closed({ x: Type.Integer(), y: Type.Integer(), width: Type.Integer({ minimum: 1 }), height: Type.Integer({ minimum: 1 }) });
export type ElementBox = Static<typeof ElementBox>;

export const RequestInfo = Closed({
  id: Type.String(),
  status: RequestStatus,
  environment: PinpointsEnvironment,
  url: Type.String(),
  selector: NullableString,
  comment: Type.String(),
  name: NullableString,
  email: NullableString,
  viewport: NullableString,
  /** The picked element's rectangle in CSS pixels of the viewport, the screenshot's frame; null when none. */
  elementBox: Type.Union([ElementBox, Type.Null()]),
  userAgent: NullableString,
  /** Null where the project does not keep visitor IPs (`pinpoints.storeIp: false`). */
  ip: NullableString,
  screenshot: Type.Union([
    Closed({ size: Type.Integer(), contentType: Type.Literal('image/png'), sha256: Type.String() }),
    Type.Null(),
  ]),
  screenshotError: NullableString,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  replies: Type.Array(RequestReplyInfo),
});
export type RequestInfo = Static<typeof RequestInfo>;

/** `GET …/requests`: newest first; `all` is open and resolved (not spam). */
export const ListRequestsQuery = Closed({
  status: Type.Optional(Type.Union([RequestStatus, Type.Literal('all')])),
  environment: Type.Optional(PinpointsEnvironment),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: requestPageSize.max })),
  cursor: PageCursor,
});
export type ListRequestsQuery = Static<typeof ListRequestsQuery>;

export const ListRequestsResponse = Closed({ ok: Ok, requests: Type.Array(RequestInfo), nextCursor: NullableString });
export type ListRequestsResponse = Static<typeof ListRequestsResponse>;

export const RequestParams = ProjectItemParams;
export type RequestParams = Static<typeof RequestParams>;

export const RequestResponse = Closed({ ok: Ok, request: RequestInfo });
export type RequestResponse = Static<typeof RequestResponse>;

/** `POST …/requests/:id/replies` (`svc requests reply`). */
export const ReplyRequest = Closed({ message: Type.String({ minLength: 1, maxLength: requestReplyLimit }) });
export type ReplyRequest = Static<typeof ReplyRequest>;

/** `POST …/requests/:id/resolve` and `/reopen`: `changed` is false when it already was. */
export const RequestChangeResponse = Closed({ ok: Ok, request: RequestInfo, changed: Type.Boolean() });
export type RequestChangeResponse = Static<typeof RequestChangeResponse>;

/** `GET …/pinpoints` (`svc pinpoints snippet`): the widget's key, tag and where it shows. */
export const PinpointsResponse = Closed({
  ok: Ok,
  key: Type.String(),
  scriptUrl: Type.String(),
  snippet: Type.String(),
  enabled: Closed({ production: Type.Boolean(), staging: Type.Boolean(), development: Type.Boolean() }),
  redact: Type.Array(Type.String()),
  storeIp: Type.Boolean(),
});
export type PinpointsResponse = Static<typeof PinpointsResponse>;

export const RequestCounts = Closed({ open: Type.Integer(), resolved: Type.Integer(), spam: Type.Integer() });
export type RequestCounts = Static<typeof RequestCounts>;

/** `DELETE …/requests/:id` (`svc requests delete`): the request, its replies, its screenshot and every copy its events kept. */
export const DeleteRequestResponse = Closed({ ok: Ok, deleted: Closed({ id: Type.String() }) });
export type DeleteRequestResponse = Static<typeof DeleteRequestResponse>;

/** The project's requests inbox settings (`svc requests set`): how long requests are kept; null until deleted. */
export const RequestSettings = Closed({ retentionSeconds: NullableInteger });
export type RequestSettings = Static<typeof RequestSettings>;

/** `PATCH …/requests-settings`: what is left out keeps its value. */
export const RequestSettingsRequest = Closed({ retentionSeconds: Type.Optional(NullableInteger) });
export type RequestSettingsRequest = Static<typeof RequestSettingsRequest>;

export const RequestSettingsResponse = Closed({ ok: Ok, settings: RequestSettings, changed: Type.Boolean() });
export type RequestSettingsResponse = Static<typeof RequestSettingsResponse>;
