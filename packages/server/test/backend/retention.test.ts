import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPrincipal, createForm, eventually, type FormFixture, newEncryptionKey, operationContext, postJson, request, selectBackend, startReceiver, type WebhookReceiver } from '@svc/testkit';
import { useBackendSuite } from '@svc/testkit/vitest';
import { updateFormSettings } from '../../src/operations/forms.js';
import { createWebhook } from '../../src/operations/webhooks.js';
import type { OperationContext } from '../../src/operations/context.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();
const day = 86_400_000;

describe.runIf(backend.available)(`retention on ${backend.name}`, () => {
  const encryptionKey = newEncryptionKey();
  // The job runs every 200 ms here instead of hourly; the rows are made old by moving their
  // times back, so nothing waits for a window to pass.
  const suite = useBackendSuite({
    args: ['--allow-private-targets', '--retry-schedule', '1h', '--maintenance-interval', '200ms', '--retention-deliveries', '30d', '--retention-spam', '7d'],
    env: { SVC_ENCRYPTION_KEY: encryptionKey },
  });
  let receiver: WebhookReceiver;
  let context: OperationContext;

  beforeAll(async () => {
    receiver = await startReceiver((received) => (received.path === '/fail' ? { status: 500 } : { status: 204 }));
    context = operationContext(suite.store, { dataDir: suite.environment.dataDir, encryptionKey: parseEncryptionKey(encryptionKey), allowPrivateTargets: true });
  });
  afterAll(async () => {
    await receiver?.close();
  });

  const post = async (form: FormFixture, fields: Record<string, unknown>, spam = false): Promise<string> => {
    const answer = await postJson(`${suite.url}/api/f/${form.endpointId}`, fields, spam ? { 'x-service-honeypot': '1' } : {});
    return (answer.body as { id: string }).id;
  };
  const age = async (table: 'submissions' | 'events', ids: readonly string[], days: number) => {
    await suite.store.db.updateTable(table).set({ created_at: Date.now() - days * day }).where('id', 'in', [...ids]).execute();
  };
  const exists = async (table: 'submissions' | 'events' | 'deliveries', id: string) => (await suite.store.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  it('removes old finished deliveries with their attempts and events, old spam, and submissions past their form\'s retention; keeps the rest', async () => {
    const form = await createForm(suite.store);
    await createWebhook(context, adminPrincipal, { workspace: form.workspace, project: form.project, url: `${receiver.url}/hook`, events: ['*'] });
    const oldSpam = await post(form, { n: 'old spam' }, true);
    const newSpam = await post(form, { n: 'new spam' }, true);
    const oldInbox = await post(form, { n: 'old inbox' });
    await receiver.waitFor(3);
    const delivered = await eventually(
      () => suite.store.db.selectFrom('deliveries').innerJoin('events', 'events.id', 'deliveries.event_id').select(['deliveries.id', 'deliveries.event_id', 'deliveries.status']).where('events.project_id', '=', form.projectId).execute(),
      (rows) => rows.length === 3 && rows.every((row) => row.status === 'succeeded'),
      'three delivered events',
    );
    const [oldDelivery, ...newDeliveries] = delivered;
    await suite.store.db.updateTable('deliveries').set({ completed_at: Date.now() - 40 * day }).where('id', '=', oldDelivery!.id).execute();
    await age('events', [oldDelivery!.event_id], 40);
    await age('submissions', [oldSpam, oldInbox], 10);

    // A delivery still pending keeps its event however old it is.
    const stuck = await createForm(suite.store);
    await createWebhook(context, adminPrincipal, { workspace: stuck.workspace, project: stuck.project, url: `${receiver.url}/fail`, events: ['*'] });
    await post(stuck, { n: 'undelivered' });
    const [pending] = await eventually(
      () => suite.store.db.selectFrom('deliveries').innerJoin('events', 'events.id', 'deliveries.event_id').select(['deliveries.id', 'deliveries.event_id', 'deliveries.attempts']).where('events.project_id', '=', stuck.projectId).execute(),
      (rows) => rows.length === 1 && rows[0]!.attempts >= 1,
      'a failed first attempt',
    );
    await age('events', [pending!.event_id], 60);

    // A form that keeps its submissions one day.
    const brief = await createForm(suite.store);
    await updateFormSettings(context, adminPrincipal, { workspace: brief.workspace, project: brief.project, slug: brief.slug, retentionSeconds: 86_400 });
    const expired = await post(brief, { n: 'two days old' });
    const fresh = await post(brief, { n: 'today' });
    await age('submissions', [expired], 2);

    await eventually(
      async () => ({ spam: await exists('submissions', oldSpam), expired: await exists('submissions', expired), delivery: await exists('deliveries', oldDelivery!.id), event: await exists('events', oldDelivery!.event_id) }),
      (state) => !state.spam && !state.expired && !state.delivery && !state.event,
      'the retention job',
    );
    expect(await suite.store.db.selectFrom('delivery_attempts').select('id').where('delivery_id', '=', oldDelivery!.id).execute()).toEqual([]);
    for (const id of [newSpam, oldInbox, fresh]) expect(await exists('submissions', id), id).toBe(true);
    for (const row of newDeliveries) expect(await exists('deliveries', row.id)).toBe(true);
    expect(await exists('deliveries', pending!.id)).toBe(true);
    expect(await exists('events', pending!.event_id)).toBe(true);

    const metrics = await request(`${suite.url}/metrics`);
    expect(metrics.text).toMatch(/svc_retention_removed_total\{kind="spam"\} [1-9]/);
    expect(metrics.text).toMatch(/svc_retention_removed_total\{kind="deliveries"\} [1-9]/);
    expect(metrics.text).toMatch(/svc_retention_removed_total\{kind="submissions"\} [1-9]/);
  });
});
