import { Type, type Static } from 'typebox';
import { Closed, Id, NullableInteger, NullableString, NullableTimestamp, Ok, PageCursor, ProjectItemParams, Timestamp } from './common.js';
import { deliveryListPageSize } from './limits.js';

export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]);
export type DeliveryStatus = Static<typeof DeliveryStatus>;

/** One event on its way to one webhook. */
export const DeliveryInfo = Closed({
  id: Type.String(),
  webhookId: Type.String(),
  eventId: Type.String(),
  eventType: Type.String(),
  status: DeliveryStatus,
  attemptCount: Type.Integer({ minimum: 0 }),
  nextAttemptAt: NullableTimestamp,
  lastStatusCode: NullableInteger,
  lastError: NullableString,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  completedAt: NullableTimestamp,
});
export type DeliveryInfo = Static<typeof DeliveryInfo>;

/** One logged attempt, with the first 64 KiB of the answer. */
export const DeliveryAttemptInfo = Closed({
  attempt: Type.Integer({ minimum: 1 }),
  startedAt: Timestamp,
  durationMs: Type.Integer({ minimum: 0 }),
  statusCode: NullableInteger,
  error: NullableString,
  responseBody: NullableString,
});
export type DeliveryAttemptInfo = Static<typeof DeliveryAttemptInfo>;

/** `GET …/deliveries`: newest first, by webhook and status when asked. */
export const ListDeliveriesQuery = Closed({
  webhook: Type.Optional(Id),
  status: Type.Optional(DeliveryStatus),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: deliveryListPageSize.max })),
  cursor: PageCursor,
});
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuery>;

export const ListDeliveriesResponse = Closed({ ok: Ok, deliveries: Type.Array(DeliveryInfo), nextCursor: NullableString });
export type ListDeliveriesResponse = Static<typeof ListDeliveriesResponse>;

export const DeliveryParams = ProjectItemParams;
export type DeliveryParams = Static<typeof DeliveryParams>;

/** `GET …/deliveries/:id`: the delivery and every attempt, oldest first. */
export const DeliveryResponse = Closed({ ok: Ok, delivery: DeliveryInfo, attempts: Type.Array(DeliveryAttemptInfo) });
export type DeliveryResponse = Static<typeof DeliveryResponse>;

/** `POST …/deliveries/:id/resend`: queued again, due now, with a fresh retry budget. */
export const ResendDeliveryResponse = Closed({ ok: Ok, delivery: DeliveryInfo });
export type ResendDeliveryResponse = Static<typeof ResendDeliveryResponse>;

/** `POST …/deliveries/replay` (`svc deliveries replay`): a webhook's finished deliveries created in [since, until), queued again. */
export const ReplayDeliveriesRequest = Closed({
  webhook: Id,
  since: Type.String({ minLength: 10, maxLength: 40 }),
  until: Type.Optional(Type.String({ minLength: 10, maxLength: 40 })),
  status: Type.Optional(Type.Union([Type.Literal('failed'), Type.Literal('all')])),
});
export type ReplayDeliveriesRequest = Static<typeof ReplayDeliveriesRequest>;
export const ReplayDeliveriesResponse = Closed({
  ok: Ok,
  webhookId: Type.String(),
  since: Timestamp,
  until: Timestamp,
  status: Type.Union([Type.Literal('failed'), Type.Literal('all')]),
  replayed: Type.Integer({ minimum: 0 }),
});
export type ReplayDeliveriesResponse = Static<typeof ReplayDeliveriesResponse>;
