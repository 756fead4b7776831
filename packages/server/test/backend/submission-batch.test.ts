import { ServiceError } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForm, selectBackend } from '@svc/testkit';
import { useBackendStore } from '@svc/testkit/vitest';
import { prepareSubmission } from '../../src/forms/prepare-submission.js';
import { SubmissionWriter } from '../../src/forms/submission-writer.js';
import { findFormByEndpointId, type ResolvedForm } from '../../src/store/queries/forms.js';
import type { Store } from '../../src/store/store.js';

const backend = await selectBackend();
const windowMs = 60_000;

// The group-commit write path itself (Store.commitSubmissions), on each backend: PostgreSQL
// writes a batch as one statement, SQLite as one transaction in its writer thread; both must
// decide idempotency the same way.
describe.runIf(backend.available)(`the submission batch write on ${backend.name}`, () => {
  const suite = useBackendStore();
  /** A second store on the same database, as a second instance has. */
  let other: Store;

  beforeAll(async () => {
    other = await suite.environment.openStore();
  });
  afterAll(async () => {
    await other?.close();
  });

  const resolved = async (): Promise<ResolvedForm> => (await findFormByEndpointId(suite.store.db, (await createForm(suite.store)).endpointId))!;
  const item = (form: ResolvedForm, key: string | null, receivedAt = Date.now()) =>
    prepareSubmission({ form, state: 'inbox', spamReason: null, fields: { key }, files: [], clientIp: '192.0.2.1', userAgent: null, idempotencyKey: key, receivedAt });
  const rows = (form: ResolvedForm) => suite.store.db.selectFrom('submissions').select(['id', 'idempotency_key']).where('form_id', '=', form.id).execute();
  const events = (form: ResolvedForm) => suite.store.db.selectFrom('events').select('payload').where('project_id', '=', form.projectId).execute();

  it('stores new submissions, folds a key repeated in one batch, replays a key stored earlier and reuses an expired one', async () => {
    const form = await resolved();
    const writer = new SubmissionWriter(suite.store, { idempotencyWindowMs: windowMs });
    const earlier = await writer.write(item(form, 'stored-earlier'));
    const expired = item(form, 'expired', Date.now() - 2 * windowMs);
    await suite.store.db
      .insertInto('idempotency_keys')
      .values({ form_id: form.id, key: 'expired', submission_id: 'sub_gone', created_at: Date.now() - 2 * windowMs })
      .execute();

    const batch = [item(form, null), item(form, 'new'), item(form, 'new'), item(form, 'stored-earlier'), expired, item(form, null)];
    const outcomes = await Promise.all(batch.map((prepared) => writer.write(prepared)));
    expect(outcomes).toEqual([
      { id: batch[0]!.submission.id, replayed: false },
      { id: batch[1]!.submission.id, replayed: false },
      { id: batch[1]!.submission.id, replayed: true },
      { id: earlier.id, replayed: true },
      { id: expired.submission.id, replayed: false },
      { id: batch[5]!.submission.id, replayed: false },
    ]);
    const stored = await rows(form);
    expect(stored.map((row) => row.id).sort()).toEqual([earlier.id, batch[0]!.submission.id, batch[1]!.submission.id, expired.submission.id, batch[5]!.submission.id].sort());
    // One event per stored submission, none for the replays.
    const eventSubmissions = (await events(form)).map((event) => (JSON.parse(event.payload) as { data: { submission: { id: string } } }).data.submission.id);
    expect(eventSubmissions.sort()).toEqual(stored.map((row) => row.id).sort());
    const key = await suite.store.db.selectFrom('idempotency_keys').select('submission_id').where('form_id', '=', form.id).where('key', '=', 'expired').executeTakeFirst();
    expect(key?.submission_id).toBe(expired.submission.id);
  });

  it('makes one submission from one key sent concurrently through two writers on two connections', async () => {
    const form = await resolved();
    const writers = [new SubmissionWriter(suite.store, { idempotencyWindowMs: windowMs }), new SubmissionWriter(other, { idempotencyWindowMs: windowMs })];
    const outcomes = await Promise.all(Array.from({ length: 60 }, (_, i) => writers[i % 2]!.write(item(form, 'contended'))));
    expect(new Set(outcomes.map((outcome) => outcome.id)).size).toBe(1);
    expect(outcomes.filter((outcome) => !outcome.replayed)).toHaveLength(1);
    expect(await rows(form)).toHaveLength(1);
    expect(await events(form)).toHaveLength(1);
  });

  it('fails only the submission whose form vanished, as not_found, and stores its neighbours', async () => {
    const form = await resolved();
    const writer = new SubmissionWriter(suite.store, { idempotencyWindowMs: windowMs });
    const ghost = { ...form, id: 'frm_vanished' };
    const results = await Promise.allSettled([writer.write(item(form, null)), writer.write(item(ghost, 'k')), writer.write(item(form, 'k'))]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(ServiceError);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'not_found' });
    expect(await rows(form)).toHaveLength(2);
  });
});
