import { Type, type Static } from 'typebox';
import { Ok, RateLimit, Slug } from './common.js';

/** A form endpoint: where to post (`url` is `{forms_url}/api/f/{endpointId}`) and its limit. */
export const FormInfo = Type.Object(
  {
    slug: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    endpointId: Type.String(),
    url: Type.String(),
    /** This form's own limit per client IP, or null for the server's default. */
    rateLimit: Type.Union([RateLimit, Type.Null()]),
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
