import type { FormInfo, RateLimit } from '@svc/protocol/api';
import type { Output } from '../output.js';
import { formatRateLimit } from './rate-limit.js';

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
