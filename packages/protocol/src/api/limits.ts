/** Bounds of the CLI API that clients show in help texts; no schema code, so cheap to import. */
export const submissionPageSize = { default: 20, max: 100 } as const;
export const deliveryListPageSize = { default: 20, max: 100 } as const;
/** Longest grace period of a rotated webhook secret: 7 days. */
export const maxRotationGraceSeconds = 604_800;
export const tokenNameLimit = 100;
/** Longest webhook URL, description and disable reason. */
export const webhookUrlLimit = 2048;
export const webhookDescriptionLimit = 500;
/** Grace period of a rotated webhook secret when none is asked for: 1 day. */
export const defaultRotationGraceSeconds = 86_400;
/** Longest success or error URL of a form, and most notification addresses. */
export const formUrlLimit = 2048;
/** The longest captcha provider secret a form keeps. */
export const captchaSecretLimit = 512;
/** The captchas a form's posts may have to solve (docs/form-endpoint.md, "Spam protection"). */
export const captchaKinds = ['none', 'altcha', 'turnstile', 'hcaptcha'] as const;
export function isCaptchaKind(value: unknown): value is (typeof captchaKinds)[number] {
  return (captchaKinds as readonly unknown[]).includes(value);
}
/** The largest `maxLinks` of a form: more links than it sends a submission to Spam. */
export const maxLinksLimit = 10_000;
export const maxNotifyAddresses = 10;
/** Replayed deliveries come due at this rate, so a receiver back from an outage is not flooded. */
export const replayDeliveriesPerSecond = 50;
export const requestPageSize = { default: 20, max: 100 } as const;
/** Longest reply to a Pinpoints request. */
export const requestReplyLimit = 5000;
/** Longest name of a member (docs/members.md). */
export const memberNameLimit = 100;
