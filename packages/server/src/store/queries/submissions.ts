import type { SubmissionRow, SubmissionState } from '../schema.js';
import type { Db } from '../store.js';

export type SubmissionListingRow = Pick<SubmissionRow, 'id' | 'state' | 'fields' | 'files' | 'created_at' | 'spam_reason'>;

const listingColumns = ['id', 'state', 'fields', 'files', 'created_at', 'spam_reason'] as const;

/** One page of a form's submissions in one state, newest first, strictly before `beforeId`. */
export async function pageSubmissionsNewestFirst(
  db: Db,
  formId: string,
  state: SubmissionState,
  beforeId: string | null,
  limit: number,
): Promise<SubmissionListingRow[]> {
  let query = db.selectFrom('submissions').select(listingColumns).where('form_id', '=', formId).where('state', '=', state);
  if (beforeId !== null) query = query.where('id', '<', beforeId);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/** One page oldest first, strictly after `afterId` and at most `upToId` (a snapshot's end). */
export async function pageSubmissionsOldestFirst(
  db: Db,
  formId: string,
  state: SubmissionState,
  range: { afterId: string | null; upToId: string },
  limit: number,
): Promise<SubmissionListingRow[]> {
  let query = db
    .selectFrom('submissions')
    .select(listingColumns)
    .where('form_id', '=', formId)
    .where('state', '=', state)
    .where('id', '<=', range.upToId);
  if (range.afterId !== null) query = query.where('id', '>', range.afterId);
  return query.orderBy('id', 'asc').limit(limit).execute();
}

/** The newest submission id of a form in one state, or null when there is none. */
export async function newestSubmissionId(db: Db, formId: string, state: SubmissionState): Promise<string | null> {
  const row = await db
    .selectFrom('submissions')
    .select('id')
    .where('form_id', '=', formId)
    .where('state', '=', state)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** How many submissions a form holds in each state (by the `submissions_listing` index). */
export async function countSubmissions(db: Db, formId: string): Promise<Record<SubmissionState, number>> {
  const rows = await db.selectFrom('submissions').select(['state', (eb) => eb.fn.countAll<number | string>().as('count')]).where('form_id', '=', formId).groupBy('state').execute();
  const counts: Record<SubmissionState, number> = { inbox: 0, spam: 0 };
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}
