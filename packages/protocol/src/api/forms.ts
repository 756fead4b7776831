import { Type, type Static } from 'typebox';
import { Closed, NullableInteger, NullableString, Ok, RateLimit, Slug } from './common.js';
import { captchaKinds, captchaSecretLimit, formUrlLimit, maxLinksLimit, maxNotifyAddresses } from './limits.js';

/** The captcha a form's posts must solve (docs/form-endpoint.md, "Spam protection"): one of `captchaKinds`. */
export const CaptchaKind = Type.Enum(captchaKinds);
export type CaptchaKind = Static<typeof CaptchaKind>;

/** A form endpoint: where to post (`url` is `{forms_url}/api/f/{endpointId}`) and its limit. */
export const FormInfo = Closed({
  slug: Type.String(),
  name: NullableString,
  endpointId: Type.String(),
  url: Type.String(),
  /** This form's own limit per client IP, or null for the server's default. */
  rateLimit: Type.Union([RateLimit, Type.Null()]),
  /** Where a browser goes after a successful post, and after a failed one (docs/form-endpoint.md). */
  successUrl: NullableString,
  errorUrl: NullableString,
  /** Who is emailed about each new submission. */
  notify: Type.Array(Type.String()),
  /** Submissions older than this many seconds are removed; null keeps them until deleted. */
  retentionSeconds: NullableInteger,
  captcha: CaptchaKind,
  /** Whether the provider's secret key is stored (it is never shown). */
  captchaSecretSet: Type.Boolean(),
  /** More links than this routes a submission to Spam; null: no limit. */
  maxLinks: NullableInteger,
  /** Which browser origins may post: `any`, `project`, or origins joined by commas. */
  origins: Type.String(),
});
export type FormInfo = Static<typeof FormInfo>;

/** `GET /api/cli/projects/:workspace/:project/forms`, in service.json order. */
export const ListFormsResponse = Closed({ ok: Ok, forms: Type.Array(FormInfo), defaultRateLimit: RateLimit });
export type ListFormsResponse = Static<typeof ListFormsResponse>;

export const FormParams = Type.Object({ workspace: Slug, project: Type.String({ minLength: 1, maxLength: 200 }), slug: Slug });
export type FormParams = Static<typeof FormParams>;

/** `PUT …/forms/:slug/rate-limit`: a limit of this form's own, or null for the default. */
export const SetRateLimitRequest = Closed({ rateLimit: Type.Union([RateLimit, Type.Null()]) });
export type SetRateLimitRequest = Static<typeof SetRateLimitRequest>;
export const SetRateLimitResponse = Closed({ ok: Ok, form: FormInfo, defaultRateLimit: RateLimit, changed: Type.Boolean() });
export type SetRateLimitResponse = Static<typeof SetRateLimitResponse>;

/** `PATCH …/forms/:slug`: the settings to change; a field left out keeps its value, null clears it. */
export const FormSettingsRequest = Closed({
  successUrl: Type.Optional(Type.Union([Type.String({ maxLength: formUrlLimit }), Type.Null()])),
  errorUrl: Type.Optional(Type.Union([Type.String({ maxLength: formUrlLimit }), Type.Null()])),
  notify: Type.Optional(Type.Array(Type.String({ maxLength: 254 }), { maxItems: maxNotifyAddresses })),
  rateLimit: Type.Optional(Type.Union([RateLimit, Type.Null()])),
  retentionSeconds: Type.Optional(NullableInteger),
  captcha: Type.Optional(CaptchaKind),
  /** The provider's secret key (Turnstile, hCaptcha), stored encrypted; null removes it. */
  captchaSecret: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: captchaSecretLimit }), Type.Null()])),
  maxLinks: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: maxLinksLimit }), Type.Null()])),
  /** `any`, `project`, or origins such as `https://example.com` joined by commas. */
  origins: Type.Optional(Type.String({ minLength: 1, maxLength: formUrlLimit * 4 })),
});
export type FormSettingsRequest = Static<typeof FormSettingsRequest>;
/** The answer to every change of a form's settings (the same as `SetRateLimitResponse`). */
export const FormSettingsResponse = SetRateLimitResponse;
export type FormSettingsResponse = SetRateLimitResponse;
