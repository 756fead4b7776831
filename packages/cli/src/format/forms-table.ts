import { formatDurationSeconds, formatRateLimit } from '@svc/protocol';
import type { FormInfo, RateLimit } from '@svc/protocol/api';
import type { Output } from '../output.js';

/** Forms for people: slug, name, endpoint id, URL and rate limit. */
export function formsTable(out: Output, forms: readonly FormInfo[], defaultRateLimit?: RateLimit): string {
  return out.table(forms, [
    { header: 'SLUG', value: (form) => form.slug },
    { header: 'NAME', value: (form) => form.name ?? '' },
    { header: 'ENDPOINT ID', value: (form) => form.endpointId },
    { header: 'URL', value: (form) => form.url },
    {
      header: 'RATE LIMIT',
      value: (form) =>
        form.rateLimit ? formatRateLimit(form.rateLimit) : defaultRateLimit ? `default (${formatRateLimit(defaultRateLimit)})` : 'default',
    },
  ]);
}

/** A form's settings, one per line, for `svc forms set`. */
export function formSettingsLines(form: FormInfo, defaultRateLimit: RateLimit): string[] {
  return [
    `  success URL:   ${form.successUrl ?? 'none (a thank-you page)'}`,
    `  error URL:     ${form.errorUrl ?? 'none (a page that says what went wrong)'}`,
    `  notify:        ${form.notify.length === 0 ? 'nobody' : form.notify.join(', ')}`,
    `  rate limit:    ${form.rateLimit ? formatRateLimit(form.rateLimit) : `default (${formatRateLimit(defaultRateLimit)})`}`,
    `  retention:     ${form.retentionSeconds === null ? 'kept until deleted' : `${formatDurationSeconds(form.retentionSeconds)}, then removed`}`,
    `  captcha:       ${form.captcha}${form.captcha === 'turnstile' || form.captcha === 'hcaptcha' ? (form.captchaSecretSet ? ' (secret stored)' : ' (no secret: posts go to Spam)') : ''}`,
    `  max links:     ${form.maxLinks === null ? 'no limit' : `${form.maxLinks}, more go to Spam`}`,
    `  origins:       ${form.origins === 'any' ? 'any' : form.origins === 'project' ? "the project's domains and local development hosts" : form.origins.split(',').join(', ')}`,
  ];
}
