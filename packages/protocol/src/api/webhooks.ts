import { Type, type Static } from 'typebox';
import { Closed, NullableString, NullableTimestamp, Ok, ProjectItemParams, Timestamp } from './common.js';
import { DeliveryAttemptInfo, DeliveryInfo } from './deliveries.js';
import { maxRotationGraceSeconds, webhookDescriptionLimit, webhookUrlLimit } from './limits.js';

/** A webhook as every answer shows it: never its signing secret. */
export const WebhookInfo = Closed({
  id: Type.String(),
  workspace: Type.String(),
  project: Type.String(),
  url: Type.String(),
  /** `*`, `form.*`, `deploy.*`, `request.*` or exact event types. */
  events: Type.Array(Type.String()),
  description: NullableString,
  enabled: Type.Boolean(),
  disabledReason: NullableString,
  /** `healthy` (its last attempt succeeded, or none was made), `failing` (since `failingSince`), `disabled`. */
  health: Type.Union([Type.Literal('healthy'), Type.Literal('failing'), Type.Literal('disabled')]),
  failingSince: NullableTimestamp,
  /** While a rotated-out secret still signs too: until when. */
  previousSecretExpiresAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type WebhookInfo = Static<typeof WebhookInfo>;

export const WebhookParams = ProjectItemParams;
export type WebhookParams = Static<typeof WebhookParams>;

/** `POST …/webhooks`. The server checks the URL and the patterns (422 `validation_failed`). */
export const CreateWebhookRequest = Closed({
  url: Type.String({ minLength: 1, maxLength: webhookUrlLimit }),
  events: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 50 }),
  description: Type.Optional(Type.Union([Type.String({ maxLength: webhookDescriptionLimit }), Type.Null()])),
});
export type CreateWebhookRequest = Static<typeof CreateWebhookRequest>;

/** Create and rotate-secret: the only answers that carry the signing secret (`whsec_…`). */
export const WebhookWithSecretResponse = Closed({ ok: Ok, webhook: WebhookInfo, secret: Type.String() });
export type WebhookWithSecretResponse = Static<typeof WebhookWithSecretResponse>;

export const ListWebhooksResponse = Closed({ ok: Ok, webhooks: Type.Array(WebhookInfo) });
export type ListWebhooksResponse = Static<typeof ListWebhooksResponse>;

/** Remove, enable, disable: the webhook as it is (or was) afterwards. */
export const WebhookResponse = Closed({ ok: Ok, webhook: WebhookInfo });
export type WebhookResponse = Static<typeof WebhookResponse>;

/** `POST …/webhooks/:id/rotate-secret`: how long the old secret keeps signing too (default a day). */
export const RotateSecretRequest = Closed({ gracePeriodSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: maxRotationGraceSeconds })) });
export type RotateSecretRequest = Static<typeof RotateSecretRequest>;

export const DisableWebhookRequest = Closed({ reason: Type.Optional(Type.String({ maxLength: webhookDescriptionLimit })) });
export type DisableWebhookRequest = Static<typeof DisableWebhookRequest>;

/** `POST …/webhooks/:id/test`: one signed sample event (any catalog type), sent now. */
export const TestWebhookRequest = Closed({ event: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) });
export type TestWebhookRequest = Static<typeof TestWebhookRequest>;

export const TestWebhookResponse = Closed({
  ok: Ok,
  /** Whether the receiver answered 2xx in time. */
  succeeded: Type.Boolean(),
  event: Closed({ id: Type.String(), type: Type.String() }),
  /** The delivery after this attempt; retried like any other when it failed. */
  delivery: DeliveryInfo,
  attempt: DeliveryAttemptInfo,
});
export type TestWebhookResponse = Static<typeof TestWebhookResponse>;
