import type { Db } from '../store.js';
import type { NewEvent, NewSubmission } from '../schema.js';

/** A submission ready to be written: ids, rows and event payload are prepared up front. */
export interface PreparedSubmission {
  readonly submission: NewSubmission;
  readonly event: NewEvent;
}

export interface SubmissionOutcome {
  /** The id to answer with: the new submission's, or the original one on a replay. */
  readonly id: string;
  /** True when an earlier submission with the same idempotency key was returned. */
  readonly replayed: boolean;
}

const rowsPerStatement = 200;

/**
 * Writes a batch of submissions and their outbox events in the caller's transaction.
 *
 * Idempotency is decided by the database, not by a check-then-insert: each key is claimed
 * with an upsert on the (form, key) primary key that only overwrites a row older than the
 * window, so concurrent duplicates, here or in another instance, produce one record. Two
 * items of one batch with the same key are folded before the upsert (a statement may not
 * touch one row twice); the later ones replay the first.
 */
export async function commitSubmissionBatch(
  trx: Db,
  items: readonly PreparedSubmission[],
  options: { now: number; idempotencyWindowMs: number },
): Promise<SubmissionOutcome[]> {
  const outcomes: (SubmissionOutcome | undefined)[] = new Array<SubmissionOutcome | undefined>(items.length);
  const leaderOf = new Map<string, number>();
  const followers: { index: number; leader: number }[] = [];
  const leaders: number[] = [];

  items.forEach((item, index) => {
    const key = item.submission.idempotency_key;
    if (key === null || key === undefined) return;
    const identity = `${item.submission.form_id}\u0000${key}`;
    const leader = leaderOf.get(identity);
    if (leader === undefined) {
      leaderOf.set(identity, index);
      leaders.push(index);
    } else {
      followers.push({ index, leader });
    }
  });

  const replayedLeaders = await claimKeys(trx, items, leaders, options);

  const fresh: PreparedSubmission[] = [];
  items.forEach((item, index) => {
    const key = item.submission.idempotency_key;
    if (key !== null && key !== undefined) {
      const existing = replayedLeaders.get(index);
      if (existing !== undefined) {
        outcomes[index] = { id: existing, replayed: true };
        return;
      }
      if (leaderOf.get(`${item.submission.form_id}\u0000${key}`) !== index) return; // a follower
    }
    outcomes[index] = { id: item.submission.id, replayed: false };
    fresh.push(item);
  });
  for (const { index, leader } of followers) {
    const original = outcomes[leader];
    if (!original) throw new Error('idempotency leader without an outcome');
    outcomes[index] = { id: original.id, replayed: true };
  }

  for (let start = 0; start < fresh.length; start += rowsPerStatement) {
    const chunk = fresh.slice(start, start + rowsPerStatement);
    await trx.insertInto('submissions').values(chunk.map((item) => item.submission)).execute();
    await trx.insertInto('events').values(chunk.map((item) => item.event)).execute();
  }
  return outcomes.map((outcome) => {
    if (!outcome) throw new Error('submission without an outcome');
    return outcome;
  });
}

/** Claims the leaders' keys; returns, for each leader that lost, the original submission id. */
async function claimKeys(
  trx: Db,
  items: readonly PreparedSubmission[],
  leaders: readonly number[],
  options: { now: number; idempotencyWindowMs: number },
): Promise<Map<number, string>> {
  const lost = new Map<number, string>();
  if (leaders.length === 0) return lost;
  const cutoff = options.now - options.idempotencyWindowMs;
  const won = new Set<string>();
  for (let start = 0; start < leaders.length; start += rowsPerStatement) {
    const chunk = leaders.slice(start, start + rowsPerStatement).map((index) => items[index]!.submission);
    const claimed = await trx
      .insertInto('idempotency_keys')
      .values(
        chunk.map((submission) => ({
          form_id: submission.form_id,
          key: submission.idempotency_key!,
          submission_id: submission.id,
          created_at: options.now,
        })),
      )
      .onConflict((conflict) =>
        conflict
          .columns(['form_id', 'key'])
          .doUpdateSet((update) => ({
            submission_id: update.ref('excluded.submission_id'),
            created_at: update.ref('excluded.created_at'),
          }))
          .where('idempotency_keys.created_at', '<', cutoff),
      )
      .returning(['form_id', 'key'])
      .execute();
    for (const row of claimed) won.add(`${row.form_id}\u0000${row.key}`);
  }

  const losers = leaders.filter((index) => {
    const submission = items[index]!.submission;
    return !won.has(`${submission.form_id}\u0000${submission.idempotency_key!}`);
  });
  if (losers.length === 0) return lost;
  const originals = await trx
    .selectFrom('idempotency_keys')
    .select(['form_id', 'key', 'submission_id'])
    .where((eb) =>
      eb.or(
        losers.map((index) => {
          const submission = items[index]!.submission;
          return eb.and([eb('form_id', '=', submission.form_id), eb('key', '=', submission.idempotency_key!)]);
        }),
      ),
    )
    .execute();
  const byIdentity = new Map(originals.map((row) => [`${row.form_id}\u0000${row.key}`, row.submission_id]));
  for (const index of losers) {
    const submission = items[index]!.submission;
    const original = byIdentity.get(`${submission.form_id}\u0000${submission.idempotency_key!}`);
    if (original === undefined) throw new Error('an idempotency key conflicted but no original was found');
    lost.set(index, original);
  }
  return lost;
}
