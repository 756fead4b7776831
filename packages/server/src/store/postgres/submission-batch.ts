import { sql } from 'kysely';
import type { Db } from '../store.js';
import { assembleOutcomes, fold, keyIdentity, type BatchOptions, type PreparedSubmission, type SubmissionOutcome, type WriterResult } from '../submission-batch.js';

/** The submission ids the keys of `indexes` point to now. */
async function findOriginals(db: Db, items: readonly PreparedSubmission[], indexes: readonly number[]): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  if (indexes.length === 0) return found;
  const rows = await db
    .selectFrom('idempotency_keys')
    .select(['form_id', 'key', 'submission_id'])
    .where((eb) =>
      eb.or(
        indexes.map((index) => {
          const submission = items[index]!.submission;
          return eb.and([eb('form_id', '=', submission.form_id), eb('key', '=', submission.idempotency_key!)]);
        }),
      ),
    )
    .execute();
  const byIdentity = new Map(rows.map((row) => [keyIdentity(row.form_id, row.key), row.submission_id]));
  for (const index of indexes) {
    const submission = items[index]!.submission;
    const original = byIdentity.get(keyIdentity(submission.form_id, submission.idempotency_key!));
    if (original !== undefined) found.set(index, original);
  }
  return found;
}

/**
 * The write of a batch as ONE statement, for PostgreSQL, whose statements may write in
 * their WITH clauses: claim the keys, insert the
 * submissions and events that won with their held files and the record of which contents
 * they hold (submission_contents), and report each row's fate, in one round trip. On its own
 * the statement is atomic and, committed, durable. A loser's original id is read from the
 * statement's snapshot; the rare key committed by another instance after that snapshot is
 * read by one more query.
 */
export async function commitSubmissionBatchInOneStatement(db: Db, items: readonly PreparedSubmission[], options: BatchOptions): Promise<SubmissionOutcome[]> {
  const folded = fold(items);
  const rows = sql.join(
    folded.writers.map((index) => {
      const { submission: s, event: e } = items[index]!;
      return sql`(${index}::int, ${s.id}::text, ${s.form_id}::text, ${s.state}::text, ${s.fields}::text, ${s.files}::text, ${s.client_ip ?? null}::text, ${s.user_agent ?? null}::text, ${s.idempotency_key ?? null}::text, ${s.spam_reason ?? null}::text, ${s.created_at}::bigint, ${e.id}::text, ${e.project_id}::text, ${e.type}::text, ${e.payload}::text, ${e.created_at}::bigint, ${e.dispatched_at}::bigint)`;
    }),
  );
  const cutoff = options.now - options.idempotencyWindowMs;
  const files = folded.writers.flatMap((index) => (items[index]!.heldFiles ?? []).map((file) => sql`(${index}::int, ${file.sha256}::text, ${file.size}::bigint, ${file.content}::bytea)`));
  // The files of the submissions that are stored, each content once (the hash is the key).
  const heldFiles =
    files.length === 0
      ? sql``
      : sql`,
    held_input (idx, sha256, size, content) AS (
      VALUES ${sql.join(files)}
    ),
    -- Equal contents stored again move their time on: the sweep's grace starts over (docs/privacy.md).
    held AS (
      INSERT INTO file_blobs (sha256, size, content, created_at)
      SELECT DISTINCT ON (sha256) sha256, size, content, ${options.now}::bigint FROM held_input WHERE idx IN (SELECT idx FROM fresh)
      ON CONFLICT (sha256) DO UPDATE SET created_at = excluded.created_at
    )`;
  const result = await sql<{ idx: number; stored: boolean; original: string | null }>`
    WITH input (idx, id, form_id, state, fields, files, client_ip, user_agent, idempotency_key, spam_reason, created_at, event_id, project_id, type, payload, event_created_at, dispatched_at) AS (
      VALUES ${rows}
    ),
    claimed AS (
      INSERT INTO idempotency_keys (form_id, key, submission_id, created_at)
      SELECT form_id, idempotency_key, id, ${options.now}::bigint FROM input WHERE idempotency_key IS NOT NULL
      ON CONFLICT (form_id, key) DO UPDATE SET submission_id = excluded.submission_id, created_at = excluded.created_at
        WHERE idempotency_keys.created_at < ${cutoff}::bigint
      RETURNING submission_id
    ),
    fresh AS (
      SELECT * FROM input WHERE idempotency_key IS NULL OR id IN (SELECT submission_id FROM claimed)
    ),
    stored AS (
      INSERT INTO submissions (id, form_id, state, fields, files, client_ip, user_agent, idempotency_key, spam_reason, created_at)
      SELECT id, form_id, state, fields, files, client_ip, user_agent, idempotency_key, spam_reason, created_at FROM fresh
      RETURNING id
    ),
    -- The outbox rows as outboxRow built them (store/queries/outbox.js).
    outbox AS (
      INSERT INTO events (id, project_id, type, payload, created_at, dispatched_at)
      SELECT event_id, project_id, type, payload, event_created_at, dispatched_at FROM fresh
      RETURNING id
    ),
    contents AS (
      INSERT INTO submission_contents (submission_id, sha256, project_id, size)
      SELECT DISTINCT fresh.id, file ->> 'sha256', fresh.project_id, (file ->> 'size')::bigint
      FROM fresh CROSS JOIN LATERAL jsonb_array_elements(fresh.files::jsonb) AS file WHERE fresh.files <> '[]'
      ON CONFLICT DO NOTHING
    )${heldFiles}
    SELECT input.idx, input.id IN (SELECT id FROM stored) AS stored,
      (SELECT k.submission_id FROM idempotency_keys k WHERE k.form_id = input.form_id AND k.key = input.idempotency_key) AS original
    FROM input`.execute(db);

  const byIndex = new Map(result.rows.map((row) => [Number(row.idx), row]));
  const unresolved = folded.writers.filter((index) => {
    const row = byIndex.get(index);
    return row !== undefined && !row.stored && row.original === null;
  });
  const originals = await findOriginals(db, items, unresolved);
  const results = folded.writers.map((index): WriterResult => {
    const row = byIndex.get(index);
    if (row?.stored) return { stored: true };
    const original = row?.original ?? originals.get(index);
    if (original === undefined) throw new Error('an idempotency key conflicted but no original was found');
    return { stored: false, original };
  });
  return assembleOutcomes(items, folded, results);
}
