import { ServiceError } from '@svc/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminPrincipal, createForm, type FormFixture, newEncryptionKey, operationContext, selectBackend } from '@svc/testkit';
import { useBackendStore } from '@svc/testkit/vitest';
import { newId } from '../../src/lib/ids.js';
import type { Principal } from '../../src/auth/principal.js';
import type { OperationContext } from '../../src/operations/context.js';
import { getDelivery, listDeliveries, resendDelivery } from '../../src/operations/deliveries.js';
import {
  createWebhook,
  disableWebhook,
  enableWebhook,
  getWebhook,
  listWebhooks,
  removeWebhook,
  rotateWebhookSecret,
  testWebhook,
} from '../../src/operations/webhooks.js';
import type { DeliveryStatus } from '../../src/store/schema.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return error;
}

describe.runIf(backend.available)(`webhook and delivery operations on ${backend.name}`, () => {
  const suite = useBackendStore();
  let context: OperationContext;

  beforeAll(() => {
    context = operationContext(suite.store, { dataDir: suite.environment.dataDir, encryptionKey: parseEncryptionKey(newEncryptionKey()) });
  });

  const scopeOf = (form: FormFixture) => ({ workspace: form.workspace, project: form.project });
  const add = (form: FormFixture, fields: { url?: string; events?: string[]; description?: string } = {}) =>
    createWebhook(context, adminPrincipal, { ...scopeOf(form), url: fields.url ?? 'https://hooks.example.com/svc', events: fields.events ?? ['form.*'], description: fields.description });

  /** A delivery of a stored event, as the worker would leave it. */
  async function storedDelivery(form: FormFixture, webhookId: string, status: DeliveryStatus, attempts = 0): Promise<string> {
    const now = Date.now();
    const eventId = newId('evt', now);
    const id = newId('dlv', now);
    await suite.store.db.insertInto('events').values({ id: eventId, project_id: form.projectId, type: 'form.submission.created', payload: '{}', created_at: now, dispatched_at: now }).execute();
    await suite.store.db
      .insertInto('deliveries')
      .values({ id, event_id: eventId, webhook_id: webhookId, status, attempts, next_attempt_at: now + 60_000, lease_owner: null, lease_expires_at: null, last_status_code: null, last_error: null, created_at: now, updated_at: now, completed_at: status === 'pending' ? null : now })
      .execute();
    return id;
  }

  it('creates a webhook and shows its secret only in the answer to create', async () => {
    const form = await createForm(suite.store);
    const created = await add(form, { events: ['form.*', 'deploy.succeeded, request.*'], description: '  CRM sync ' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.webhook).toEqual({
      id: expect.stringMatching(/^wh_[0-9a-z]{26}$/),
      workspace: form.workspace,
      project: form.project,
      url: 'https://hooks.example.com/svc',
      events: ['form.*', 'deploy.succeeded', 'request.*'],
      description: 'CRM sync',
      enabled: true,
      disabledReason: null,
      health: 'healthy',
      failingSince: null,
      previousSecretExpiresAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const shown = [await listWebhooks(context, adminPrincipal, scopeOf(form)), await getWebhook(context, adminPrincipal, { ...scopeOf(form), id: created.webhook.id })];
    expect(shown[0]).toEqual([created.webhook]);
    expect(shown[1]).toEqual(created.webhook);
    expect(JSON.stringify(shown)).not.toContain(created.secret);
    expect(JSON.stringify(shown)).not.toMatch(/whsec_|enc1\./);
  });

  it('keeps a project to --max-webhooks-per-project webhooks, also when several are added at once', async () => {
    const limited = operationContext(suite.store, { dataDir: suite.environment.dataDir, encryptionKey: parseEncryptionKey(newEncryptionKey()), maxWebhooksPerProject: 3 });
    const form = await createForm(suite.store);
    const attempts = await Promise.allSettled(
      Array.from({ length: 6 }, (_, n) => createWebhook(limited, adminPrincipal, { ...scopeOf(form), url: `https://hooks.example.com/${n}`, events: ['form.*'] })),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(3);
    for (const attempt of attempts.filter((attempt) => attempt.status === 'rejected')) {
      expect(attempt.reason).toMatchObject({ code: 'conflict', message: expect.stringMatching(/at most 3 webhooks/) });
    }
    expect(await listWebhooks(limited, adminPrincipal, scopeOf(form))).toHaveLength(3);
    // Another project has its own places.
    const other = await createForm(suite.store);
    await expect(createWebhook(limited, adminPrincipal, { ...scopeOf(other), url: 'https://hooks.example.com/x', events: ['form.*'] })).resolves.toBeDefined();
  });

  it('refuses invalid URLs and event patterns, naming each field', async () => {
    const form = await createForm(suite.store);
    const error = await failure(createWebhook(context, adminPrincipal, { ...scopeOf(form), url: 'ftp://example.com', events: ['form.*', 'nope.*'] }));
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual({ errors: { url: 'must be an http:// or https:// URL', events: expect.stringMatching(/"nope\.\*" is not known/) } });
    const noEvents = await failure(add(form, { events: [] }));
    expect(noEvents.details).toEqual({ errors: { events: expect.stringMatching(/at least one pattern/) } });
    const longDescription = await failure(add(form, { description: 'x'.repeat(501) }));
    expect(longDescription.details).toEqual({ errors: { description: 'must be at most 500 characters' } });
    expect(await listWebhooks(context, adminPrincipal, scopeOf(form))).toEqual([]);
  });

  it('answers not_found outside the principal’s workspace, and for webhooks of another project', async () => {
    const mine = await createForm(suite.store);
    const theirs = await createForm(suite.store);
    const other = await createForm(suite.store, { workspace: mine.workspace, project: 'other-site' });
    const { webhook } = await add(theirs);
    const ownWorkspaceId = (await suite.store.db.selectFrom('workspaces').select('id').where('slug', '=', mine.workspace).executeTakeFirstOrThrow()).id;
    const scoped: Principal = { tokenId: 'tok_scoped', workspaceId: ownWorkspaceId };
    const target = { ...scopeOf(theirs), id: webhook.id };
    for (const attempt of [
      () => listWebhooks(context, scoped, scopeOf(theirs)),
      () => getWebhook(context, scoped, target),
      () => removeWebhook(context, scoped, target),
      () => rotateWebhookSecret(context, scoped, target),
      () => disableWebhook(context, scoped, target),
      () => enableWebhook(context, scoped, target),
      () => testWebhook(context, scoped, target),
      () => createWebhook(context, scoped, { ...scopeOf(theirs), url: 'https://a.example', events: ['*'] }),
      () => listDeliveries(context, scoped, scopeOf(theirs)),
    ]) {
      expect((await failure(attempt())).code).toBe('not_found');
    }
    // The right id under another project of the principal's own workspace is not found either.
    expect((await failure(getWebhook(context, adminPrincipal, { ...scopeOf(other), id: webhook.id }))).code).toBe('not_found');
    expect(await getWebhook(context, adminPrincipal, target)).toMatchObject({ id: webhook.id });
  });

  it('rotates the secret with a grace period of a day by default, or as asked', async () => {
    const form = await createForm(suite.store);
    const { webhook, secret } = await add(form);
    const target = { ...scopeOf(form), id: webhook.id };
    const before = Date.now();
    const rotated = await rotateWebhookSecret(context, adminPrincipal, target);
    expect(rotated.secret).not.toBe(secret);
    expect(Date.parse(rotated.webhook.previousSecretExpiresAt!) - before).toBeGreaterThanOrEqual(86_400_000);
    expect(Date.parse(rotated.webhook.previousSecretExpiresAt!) - Date.now()).toBeLessThanOrEqual(86_400_000);
    const short = await rotateWebhookSecret(context, adminPrincipal, { ...target, gracePeriodSeconds: 60 });
    expect(Date.parse(short.webhook.previousSecretExpiresAt!) - Date.now()).toBeLessThanOrEqual(60_000);
    for (const gracePeriodSeconds of [-1, 1.5, 604_801]) {
      expect((await failure(rotateWebhookSecret(context, adminPrincipal, { ...target, gracePeriodSeconds }))).code).toBe('validation_failed');
    }
  });

  it('disables a webhook with a reason, failing its pending deliveries, and enables it again', async () => {
    const form = await createForm(suite.store);
    const { webhook } = await add(form);
    const target = { ...scopeOf(form), id: webhook.id };
    const pending = await storedDelivery(form, webhook.id, 'pending', 2);
    const disabled = await disableWebhook(context, adminPrincipal, { ...target, reason: 'migrating the receiver' });
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'migrating the receiver' });
    const { delivery } = await getDelivery(context, adminPrincipal, { ...scopeOf(form), id: pending });
    expect(delivery).toMatchObject({ status: 'failed', lastError: 'webhook disabled: migrating the receiver', nextAttemptAt: null, completedAt: expect.any(String) });

    expect((await failure(resendDelivery(context, adminPrincipal, { ...scopeOf(form), id: pending }))).code).toBe('conflict');
    expect((await failure(testWebhook(context, adminPrincipal, target))).code).toBe('conflict');
    expect(await enableWebhook(context, adminPrincipal, target)).toMatchObject({ enabled: true, disabledReason: null });
    expect(await resendDelivery(context, adminPrincipal, { ...scopeOf(form), id: pending })).toMatchObject({ status: 'pending', attemptCount: 2 });
    const row = await suite.store.db.selectFrom('deliveries').select(['retry_base', 'attempts']).where('id', '=', pending).executeTakeFirstOrThrow();
    expect(row).toEqual({ retry_base: 2, attempts: 2 });
    expect((await failure(resendDelivery(context, adminPrincipal, { ...scopeOf(form), id: pending }))).code).toBe('conflict');
  });

  it('removes a webhook with its deliveries', async () => {
    const form = await createForm(suite.store);
    const { webhook } = await add(form);
    const delivery = await storedDelivery(form, webhook.id, 'failed', 6);
    expect(await removeWebhook(context, adminPrincipal, { ...scopeOf(form), id: webhook.id })).toMatchObject({ id: webhook.id });
    expect(await listWebhooks(context, adminPrincipal, scopeOf(form))).toEqual([]);
    expect((await failure(getDelivery(context, adminPrincipal, { ...scopeOf(form), id: delivery }))).code).toBe('not_found');
    expect((await failure(removeWebhook(context, adminPrincipal, { ...scopeOf(form), id: webhook.id }))).code).toBe('not_found');
  });

  it('lists deliveries newest first, by webhook and status, one page at a time', async () => {
    const form = await createForm(suite.store);
    const first = await add(form);
    const second = await add(form);
    const ids: string[] = [];
    for (const status of ['succeeded', 'failed', 'pending', 'succeeded', 'failed'] as const) ids.push(await storedDelivery(form, first.webhook.id, status));
    const elsewhere = await storedDelivery(form, second.webhook.id, 'succeeded');

    const everything = await listDeliveries(context, adminPrincipal, scopeOf(form));
    expect(everything.deliveries.map((delivery) => delivery.id)).toEqual([elsewhere, ...[...ids].reverse()]);
    expect(everything.nextCursor).toBeNull();

    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await listDeliveries(context, adminPrincipal, { ...scopeOf(form), webhookId: first.webhook.id, limit: 2, cursor });
      pages.push(page.deliveries.map((delivery) => delivery.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages).toEqual([[ids[4], ids[3]], [ids[2], ids[1]], [ids[0]]]);

    const failed = await listDeliveries(context, adminPrincipal, { ...scopeOf(form), status: 'failed' });
    expect(failed.deliveries.map((delivery) => delivery.id)).toEqual([ids[4], ids[1]]);
    expect(failed.deliveries[0]).toMatchObject({ webhookId: first.webhook.id, eventType: 'form.submission.created', status: 'failed' });

    expect((await failure(listDeliveries(context, adminPrincipal, { ...scopeOf(form), cursor: 'bogus' }))).code).toBe('invalid_cursor');
    expect((await failure(listDeliveries(context, adminPrincipal, { ...scopeOf(form), webhookId: 'wh_unknown' }))).code).toBe('not_found');
    expect((await failure(listDeliveries(context, adminPrincipal, { ...scopeOf(form), status: 'lost' as DeliveryStatus }))).code).toBe('validation_failed');
  });

  it('refuses to test with an event type outside the catalog', async () => {
    const form = await createForm(suite.store);
    const { webhook } = await add(form);
    const error = await failure(testWebhook(context, adminPrincipal, { ...scopeOf(form), id: webhook.id, event: 'form.*' }));
    expect(error).toMatchObject({ code: 'validation_failed', details: { errors: { event: 'must be an event type from the catalog' } } });
  });
});
