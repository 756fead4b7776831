import type { SubmissionRow, SubmissionState } from '../schema.js';
import type { Db } from '../store.js';

/** A submission of a project with the form it belongs to: what the owner's operations act on. */
export interface ProjectSubmission {
  readonly submission: Pick<SubmissionRow, 'id' | 'form_id' | 'state' | 'fields' | 'files' | 'created_at' | 'spam_reason'>;
  readonly form: { id: string; slug: string; name: string | null; endpointId: string };
}

export async function findProjectSubmission(db: Db, projectId: string, id: string): Promise<ProjectSubmission | undefined> {
  const row = await db
    .selectFrom('submissions')
    .innerJoin('forms', 'forms.id', 'submissions.form_id')
    .select([
      'submissions.id',
      'submissions.form_id',
      'submissions.state',
      'submissions.fields',
      'submissions.files',
      'submissions.created_at',
      'submissions.spam_reason',
      'forms.slug',
      'forms.name',
      'forms.endpoint_id',
    ])
    .where('forms.project_id', '=', projectId)
    .where('submissions.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { slug, name, endpoint_id, ...submission } = row;
  return { submission, form: { id: row.form_id, slug, name, endpointId: endpoint_id } };
}

/** Moved by hand: to Spam with the reason `manual`, to the inbox without a reason. */
export async function setSubmissionState(db: Db, id: string, state: SubmissionState): Promise<void> {
  await db.updateTable('submissions').set({ state, spam_reason: state === 'spam' ? 'manual' : null }).where('id', '=', id).execute();
}

/** Removes the submission and its idempotency key (and, by cascade, its submission_contents). */
export async function deleteSubmission(db: Db, id: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('submission_id', '=', id).execute();
  await db.deleteFrom('submissions').where('id', '=', id).execute();
}

/**
 * The project's events that carry this submission. Events do not reference submissions by
 * column, so candidates are found by text and confirmed on the parsed payload.
 */
export async function submissionEvents(db: Db, projectId: string, submissionId: string): Promise<{ id: string; type: string; created_at: number }[]> {
  const candidates = await db
    .selectFrom('events')
    .select(['id', 'type', 'payload', 'created_at'])
    .where('project_id', '=', projectId)
    .where('type', 'in', ['form.submission.created', 'form.submission.spam'])
    .where('payload', 'like', `%${submissionId}%`)
    .execute();
  return candidates
    .filter((event) => (JSON.parse(event.payload) as { data?: { submission?: { id?: unknown } } }).data?.submission?.id === submissionId)
    .map(({ id, type, created_at }) => ({ id, type, created_at }));
}

/** The submissions of a form, oldest first: what pruning the form erases. */
export async function formSubmissions(db: Db, formId: string): Promise<{ id: string; created_at: number; files: string }[]> {
  const rows = await db.selectFrom('submissions').select(['id', 'created_at', 'files']).where('form_id', '=', formId).orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => ({ ...row, created_at: Number(row.created_at) }));
}

/**
 * The project's events that carry a submission of the form with this endpoint id, by
 * submission id: found by text, confirmed on the parsed payload, as `submissionEvents`.
 */
export async function formSubmissionEvents(db: Db, projectId: string, endpointId: string): Promise<Map<string, { id: string; type: string; created_at: number }[]>> {
  const candidates = await db
    .selectFrom('events')
    .select(['id', 'type', 'payload', 'created_at'])
    .where('project_id', '=', projectId)
    .where('type', 'in', ['form.submission.created', 'form.submission.spam'])
    .where('payload', 'like', `%${endpointId}%`)
    .execute();
  const bySubmission = new Map<string, { id: string; type: string; created_at: number }[]>();
  for (const event of candidates) {
    const data = (JSON.parse(event.payload) as { data?: { form?: { id?: unknown }; submission?: { id?: unknown } } }).data;
    const submissionId = data?.submission?.id;
    if (data?.form?.id !== endpointId || typeof submissionId !== 'string') continue;
    const list = bySubmission.get(submissionId) ?? [];
    list.push({ id: event.id, type: event.type, created_at: Number(event.created_at) });
    bySubmission.set(submissionId, list);
  }
  return bySubmission;
}

/**
 * Erases what the events kept of a submission: each payload becomes `tombstone(event)`,
 * pending deliveries of them fail without another attempt, and the answers kept from
 * receivers (which may echo the fields) are dropped.
 */
export async function eraseEventCopies(
  db: Db,
  events: readonly { id: string; type: string; created_at: number }[],
  tombstone: (event: { id: string; type: string; created_at: number }) => string,
  reason: string,
  now: number,
): Promise<void> {
  if (events.length === 0) return;
  const ids = events.map((event) => event.id);
  for (const event of events) await db.updateTable('events').set({ payload: tombstone(event) }).where('id', '=', event.id).execute();
  await db
    .updateTable('deliveries')
    .set({ status: 'failed', next_attempt_at: now, lease_owner: null, lease_expires_at: null, last_error: reason, updated_at: now, completed_at: now })
    .where('event_id', 'in', ids)
    .where('status', '=', 'pending')
    .execute();
  const deliveries = db.selectFrom('deliveries').select('id').where('event_id', 'in', ids);
  await db.updateTable('delivery_attempts').set({ response_body: null }).where('delivery_id', 'in', deliveries).execute();
}

/**
 * Ids of the project's submissions whose stored fields contain `text`, case aside: the
 * candidates of an erasure by address, which the caller confirms on the parsed fields.
 */
export async function submissionsMentioning(db: Db, projectId: string, text: string): Promise<{ id: string; fields: string }[]> {
  return db
    .selectFrom('submissions')
    .innerJoin('forms', 'forms.id', 'submissions.form_id')
    .select(['submissions.id', 'submissions.fields'])
    .where('forms.project_id', '=', projectId)
    .where((eb) => eb(eb.fn('lower', ['submissions.fields']), 'like', `%${text.toLowerCase()}%`))
    .orderBy('submissions.id')
    .execute();
}
