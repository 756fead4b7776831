import { Type, type Static } from 'typebox';
import { Id, NullableTimestamp, Ok, ProjectName, Slug, Timestamp } from './common.js';
import { deliveryListPageSize } from './limits.js';

export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]);
export type DeliveryStatus = Static<typeof DeliveryStatus>;

/** One event on its way to one webhook. */
export const DeliveryInfo = Type.Object(
  {
    id: Type.String(),
    webhookId: Type.String(),
    eventId: Type.String(),
    eventType: Type.String(),
    status: DeliveryStatus,
    attemptCount: Type.Integer({ minimum: 0 }),
    nextAttemptAt: NullableTimestamp,
    lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
    lastError: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    completedAt: NullableTimestamp,
  },
  { additionalProperties: false },
);
export type DeliveryInfo = Static<typeof DeliveryInfo>;

/** One logged attempt, with the first 64 KiB of the answer. */
export const DeliveryAttemptInfo = Type.Object(
  {
    attempt: Type.Integer({ minimum: 1 }),
    startedAt: Timestamp,
    durationMs: Type.Integer({ minimum: 0 }),
    statusCode: Type.Union([Type.Integer(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
    responseBody: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type DeliveryAttemptInfo = Static<typeof DeliveryAttemptInfo>;

/** `GET …/deliveries`: newest first, by webhook and status when asked. */
export const ListDeliveriesQuery = Type.Object(
  {
    webhook: Type.Optional(Id),
    status: Type.Optional(DeliveryStatus),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: deliveryListPageSize.max })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuery>;

export const ListDeliveriesResponse = Type.Object(
  { ok: Ok, deliveries: Type.Array(DeliveryInfo), nextCursor: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);
export type ListDeliveriesResponse = Static<typeof ListDeliveriesResponse>;

export const DeliveryParams = Type.Object({ workspace: Slug, project: ProjectName, id: Id });
export type DeliveryParams = Static<typeof DeliveryParams>;

/** `GET …/deliveries/:id`: the delivery and every attempt, oldest first. */
export const DeliveryResponse = Type.Object({ ok: Ok, delivery: DeliveryInfo, attempts: Type.Array(DeliveryAttemptInfo) }, { additionalProperties: false });
export type DeliveryResponse = Static<typeof DeliveryResponse>;

/** `POST …/deliveries/:id/resend`: queued again, due now, with a fresh retry budget. */
export const ResendDeliveryResponse = Type.Object({ ok: Ok, delivery: DeliveryInfo }, { additionalProperties: false });
export type ResendDeliveryResponse = Static<typeof ResendDeliveryResponse>;

/** `POST …/deliveries/replay` (`svc deliveries replay`): a webhook's finished deliveries created in [since, until), queued again. */
export const ReplayDeliveriesRequest = Type.Object(
  {
    webhook: Id,
    since: Type.String({ minLength: 10, maxLength: 40 }),
    until: Type.Optional(Type.String({ minLength: 10, maxLength: 40 })),
    status: Type.Optional(Type.Union([Type.Literal('failed'), Type.Literal('all')])),
  },
  { additionalProperties: false },
);
export type ReplayDeliveriesRequest = Static<typeof ReplayDeliveriesRequest>;
export const ReplayDeliveriesResponse = Type.Object(
  {
    ok: Ok,
    webhookId: Type.String(),
    since: Timestamp,
    until: Timestamp,
    status: Type.Union([Type.Literal('failed'), Type.Literal('all')]),
    replayed: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type ReplayDeliveriesResponse = Static<typeof ReplayDeliveriesResponse>;
