import { newId } from '../lib/ids.js';
import { deleteWebhook, findFormNotificationTarget, insertWebhook, setWebhookUrl } from '../store/queries/webhooks.js';
import type { FormRow } from '../store/schema.js';
import type { Db } from '../store/store.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { generateSigningSecret, signingSecretContext } from '../webhooks/signing-secret.js';

/** The URL of a notification target: `mailto:` and the addresses, comma-separated. */
export function mailtoUrl(addresses: readonly string[]): string {
  return `mailto:${addresses.join(',')}`;
}

export function addressesOf(url: string): string[] {
  return url.startsWith('mailto:') ? url.slice('mailto:'.length).split(',').filter((address) => address !== '') : [];
}

/**
 * Keeps a form's notification target in step with its addresses, in the caller's
 * transaction (docs/form-endpoint.md, "Notifications"): addresses and no target → one is
 * made (kind `email`, new submissions of this form only); other addresses → its URL
 * changes, its enabled state stays; no addresses → it is removed with its log.
 */
export async function syncNotificationTarget(trx: Db, form: Pick<FormRow, 'id' | 'project_id' | 'slug'>, addresses: readonly string[], box: SecretBox, now: number): Promise<void> {
  const target = await findFormNotificationTarget(trx, form.id);
  if (addresses.length === 0) {
    if (target) await deleteWebhook(trx, target.id);
    return;
  }
  const url = mailtoUrl(addresses);
  if (target) {
    if (target.url !== url) await setWebhookUrl(trx, target.id, url, now);
    return;
  }
  const id = newId('wh', now);
  await insertWebhook(trx, {
    id,
    project_id: form.project_id,
    url,
    events: JSON.stringify(['form.submission.created']),
    description: `notification emails of form ${form.slug}`,
    // Emails are not signed; the column holds a sealed secret like every row, never used.
    secret: box.seal(generateSigningSecret(), signingSecretContext(id)),
    previous_secret: null,
    previous_secret_expires_at: null,
    enabled: 1,
    disabled_reason: null,
    kind: 'email',
    form_id: form.id,
    failing_since: null,
    created_at: now,
    updated_at: now,
  });
}
