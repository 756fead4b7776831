import type { FormInfo } from '@svc/protocol/api';
import { parseNotifyEmails } from '../store/queries/forms.js';
import type { FormRow } from '../store/schema.js';
import type { OperationContext } from './context.js';

/** The address printed for a form endpoint: `{forms_url}/api/f/{id}`. */
export function formUrl(context: OperationContext, endpointId: string): string {
  return `${context.urls.formsUrl}/api/f/${endpointId}`;
}

export type FormInfoRow = Pick<FormRow, 'slug' | 'name' | 'endpoint_id' | 'rate_limit_max' | 'rate_limit_window_seconds' | 'success_url' | 'error_url' | 'notify_emails' | 'retention_seconds' | 'captcha' | 'captcha_secret' | 'max_links' | 'origins'>;

export function toFormInfo(context: OperationContext, row: FormInfoRow): FormInfo {
  return {
    slug: row.slug,
    name: row.name,
    endpointId: row.endpoint_id,
    url: formUrl(context, row.endpoint_id),
    rateLimit:
      row.rate_limit_max !== null && row.rate_limit_window_seconds !== null ? { max: row.rate_limit_max, windowSeconds: row.rate_limit_window_seconds } : null,
    successUrl: row.success_url,
    errorUrl: row.error_url,
    notify: parseNotifyEmails(row.notify_emails),
    retentionSeconds: row.retention_seconds,
    captcha: row.captcha,
    captchaSecretSet: row.captcha_secret !== null,
    maxLinks: row.max_links,
    origins: row.origins,
  };
}
