import { Type, type Static } from 'typebox';
import { Id, NullableTimestamp, Ok, ProjectName, Slug, Timestamp } from './common.js';
import { DeliveryAttemptInfo, DeliveryInfo } from './deliveries.js';
import { maxRotationGraceSeconds, webhookDescriptionLimit, webhookUrlLimit } from './limits.js';

/** A webhook as every answer shows it: never its signing secret. */
export const WebhookInfo = Type.Object(
  {
    id: Type.String(),
    workspace: Type.String(),
    project: Type.String(),
    url: Type.String(),
    /** `*`, `form.*`, `deploy.*`, `request.*` or exact event types. */
    events: Type.Array(Type.String()),
    description: Type.Union([Type.String(), Type.Null()]),
    enabled: Type.Boolean(),
    disabledReason: Type.Union([Type.String(), Type.Null()]),
    /** `healthy` (its last attempt succeeded, or none was made), `failing` (since `failingSince`), `disabled`. */
    health: Type.Union([Type.Literal('healthy'), Type.Literal('failing'), Type.Literal('disabled')]),
    failingSince: NullableTimestamp,
    /** While a rotated-out secret still signs too: until when. */
    previousSecretExpiresAt: NullableTimestamp,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false },
);
export type WebhookInfo = Static<typeof WebhookInfo>;

export const WebhookParams = Type.Object({ workspace: Slug, project: ProjectName, id: Id });
export type WebhookParams = Static<typeof WebhookParams>;

/** `POST …/webhooks`. The server checks the URL and the patterns (422 `validation_failed`). */
export const CreateWebhookRequest = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: webhookUrlLimit }),
    events: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 50 }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: webhookDescriptionLimit }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type CreateWebhookRequest = Static<typeof CreateWebhookRequest>;

/** Create and rotate-secret: the only answers that carry the signing secret (`whsec_…`). */
export const WebhookWithSecretResponse = Type.Object({ ok: Ok, webhook: WebhookInfo, secret: Type.String() }, { additionalProperties: false });
export type WebhookWithSecretResponse = Static<typeof WebhookWithSecretResponse>;

export const ListWebhooksResponse = Type.Object({ ok: Ok, webhooks: Type.Array(WebhookInfo) }, { additionalProperties: false });
export type ListWebhooksResponse = Static<typeof ListWebhooksResponse>;

/** Remove, enable, disable: the webhook as it is (or was) afterwards. */
export const WebhookResponse = Type.Object({ ok: Ok, webhook: WebhookInfo }, { additionalProperties: false });
export type WebhookResponse = Static<typeof WebhookResponse>;

/** `POST …/webhooks/:id/rotate-secret`: how long the old secret keeps signing too (default a day). */
export const RotateSecretRequest = Type.Object(
  { gracePeriodSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: maxRotationGraceSeconds })) },
  { additionalProperties: false },
);
export type RotateSecretRequest = Static<typeof RotateSecretRequest>;

export const DisableWebhookRequest = Type.Object({ reason: Type.Optional(Type.String({ maxLength: webhookDescriptionLimit })) }, { additionalProperties: false });
export type DisableWebhookRequest = Static<typeof DisableWebhookRequest>;

/** `POST …/webhooks/:id/test`: one signed sample event (any catalog type), sent now. */
export const TestWebhookRequest = Type.Object({ event: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, { additionalProperties: false });
export type TestWebhookRequest = Static<typeof TestWebhookRequest>;

export const TestWebhookResponse = Type.Object(
  {
    ok: Ok,
    /** Whether the receiver answered 2xx in time. */
    succeeded: Type.Boolean(),
    event: Type.Object({ id: Type.String(), type: Type.String() }, { additionalProperties: false }),
    /** The delivery after this attempt; retried like any other when it failed. */
    delivery: DeliveryInfo,
    attempt: DeliveryAttemptInfo,
  },
  { additionalProperties: false },
);
export type TestWebhookResponse = Static<typeof TestWebhookResponse>;
