import { newId } from '../lib/ids.js';
import { copyPendingDeliveries } from '../store/queries/dispatch-events.js';
import { findFormById, parseNotifyEmails } from '../store/queries/forms.js';
import { deleteWebhook, findFormNotificationTargets, formsWithSharedNotificationTargets, insertWebhook, setWebhookUrl } from '../store/queries/webhooks.js';
import type { FormRow } from '../store/schema.js';
import type { Db, Store } from '../store/store.js';
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
 * Keeps a form's notification targets in step with its addresses, in the caller's
 * transaction (docs/form-endpoint.md, "Notifications"): one target (kind `email`, new
 * submissions of this form only) per address, so that every recipient gets a message of
 * their own and no one sees who else is told; an address no longer listed loses its target
 * with its log. A target stored before that, which emailed several addresses at once, keeps
 * its log as the first one's, and each other address gets a target of its own with the
 * deliveries still pending.
 */
export async function syncNotificationTargets(trx: Db, form: Pick<FormRow, 'id' | 'project_id' | 'slug'>, addresses: readonly string[], box: SecretBox, now: number): Promise<void> {
  const wanted = new Set(addresses);
  const kept = new Map<string, string>();
  for (const target of await findFormNotificationTargets(trx, form.id)) {
    const own = addressesOf(target.url).filter((address) => wanted.has(address) && !kept.has(address));
    const [first, ...others] = own;
    if (first === undefined) {
      await deleteWebhook(trx, target.id);
      continue;
    }
    if (target.url !== mailtoUrl([first])) await setWebhookUrl(trx, target.id, mailtoUrl([first]), now);
    kept.set(first, target.id);
    for (const address of others) {
      const id = await insertNotificationTarget(trx, form, address, box, now);
      await copyPendingDeliveries(trx, target.id, id, now);
      kept.set(address, id);
    }
  }
  for (const address of wanted) if (!kept.has(address)) await insertNotificationTarget(trx, form, address, box, now);
}

async function insertNotificationTarget(trx: Db, form: Pick<FormRow, 'id' | 'project_id' | 'slug'>, address: string, box: SecretBox, now: number): Promise<string> {
  const id = newId('wh', now);
  await insertWebhook(trx, {
    id,
    project_id: form.project_id,
    url: mailtoUrl([address]),
    events: JSON.stringify(['form.submission.created']),
    description: `notification emails of form ${form.slug} to ${address}`,
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
  return id;
}

/**
 * At start: the notification targets stored before one target per address, which emailed
 * several addresses in one message, are split (`syncNotificationTargets`). Returns how many
 * forms changed.
 */
export async function splitSharedNotificationTargets(store: Pick<Store, 'db' | 'transaction'>, box: SecretBox, now: number): Promise<number> {
  const formIds = await formsWithSharedNotificationTargets(store.db);
  for (const formId of formIds) {
    await store.transaction(async (trx) => {
      const form = await findFormById(trx, formId);
      if (form) await syncNotificationTargets(trx, form, parseNotifyEmails(form.notify_emails), box, now);
    });
  }
  return formIds.length;
}
