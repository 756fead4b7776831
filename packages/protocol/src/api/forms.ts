import { Type, type Static } from 'typebox';
import { Ok, RateLimit, Slug } from './common.js';
import { formUrlLimit, maxNotifyAddresses } from './limits.js';

/** A form endpoint: where to post (`url` is `{forms_url}/api/f/{endpointId}`) and its limit. */
export const FormInfo = Type.Object(
  {
    slug: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    endpointId: Type.String(),
    url: Type.String(),
    /** This form's own limit per client IP, or null for the server's default. */
    rateLimit: Type.Union([RateLimit, Type.Null()]),
    /** Where a browser goes after a successful post, and after a failed one (docs/form-endpoint.md). */
    successUrl: Type.Union([Type.String(), Type.Null()]),
    errorUrl: Type.Union([Type.String(), Type.Null()]),
    /** Who is emailed about each new submission. */
    notify: Type.Array(Type.String()),
    /** Submissions older than this many seconds are removed; null keeps them until deleted. */
    retentionSeconds: Type.Union([Type.Integer(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type FormInfo = Static<typeof FormInfo>;

/** `GET /api/cli/projects/:workspace/:project/forms`, in service.json order. */
export const ListFormsResponse = Type.Object(
  { ok: Ok, forms: Type.Array(FormInfo), defaultRateLimit: RateLimit },
  { additionalProperties: false },
);
export type ListFormsResponse = Static<typeof ListFormsResponse>;

export const FormParams = Type.Object({ workspace: Slug, project: Type.String({ minLength: 1, maxLength: 200 }), slug: Slug });
export type FormParams = Static<typeof FormParams>;

/** `PUT …/forms/:slug/rate-limit`: a limit of this form's own, or null for the default. */
export const SetRateLimitRequest = Type.Object({ rateLimit: Type.Union([RateLimit, Type.Null()]) }, { additionalProperties: false });
export type SetRateLimitRequest = Static<typeof SetRateLimitRequest>;
export const SetRateLimitResponse = Type.Object(
  { ok: Ok, form: FormInfo, defaultRateLimit: RateLimit, changed: Type.Boolean() },
  { additionalProperties: false },
);
export type SetRateLimitResponse = Static<typeof SetRateLimitResponse>;

/** `PATCH …/forms/:slug`: the settings to change; a field left out keeps its value, null clears it. */
export const FormSettingsRequest = Type.Object(
  {
    successUrl: Type.Optional(Type.Union([Type.String({ maxLength: formUrlLimit }), Type.Null()])),
    errorUrl: Type.Optional(Type.Union([Type.String({ maxLength: formUrlLimit }), Type.Null()])),
    notify: Type.Optional(Type.Array(Type.String({ maxLength: 254 }), { maxItems: maxNotifyAddresses })),
    rateLimit: Type.Optional(Type.Union([RateLimit, Type.Null()])),
    retentionSeconds: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  },
  { additionalProperties: false },
);
export type FormSettingsRequest = Static<typeof FormSettingsRequest>;
/** The answer to every change of a form's settings (the same as `SetRateLimitResponse`). */
export const FormSettingsResponse = SetRateLimitResponse;
export type FormSettingsResponse = SetRateLimitResponse;
