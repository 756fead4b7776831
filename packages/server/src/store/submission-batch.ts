import type { HeldFile } from './files/held-files.js';
import type { EventRow, NewSubmission } from './schema.js';

// The form endpoint's batch write, as the storage port sees it (docs/architecture.md): the
// types, the folding of repeated idempotency keys within a batch, and the assembly of each
// item's outcome. How a batch is committed is each adapter's own: store/postgres/
// (one statement) and store/sqlite/ (a writer thread).

/** A submission ready to be written: ids, rows and event payload are prepared up front. */
export interface PreparedSubmission {
  readonly submission: NewSubmission;
  /** Its outbox row, every column (`outboxRow` in store/queries/outbox.js). */
  readonly event: EventRow;
  /**
   * Its files held in memory (store/files/held-files.ts), written as `file_blobs` rows in
   * the batch's transaction when the submission is stored (not when it is a replay).
   */
  readonly heldFiles?: readonly HeldFile[];
}

export interface SubmissionOutcome {
  /** The id to answer with: the new submission's, or the original one on a replay. */
  readonly id: string;
  /** True when an earlier submission with the same idempotency key was returned. */
  readonly replayed: boolean;
}

export interface BatchOptions {
  readonly now: number;
  readonly idempotencyWindowMs: number;
}

/**
 * Idempotency is decided by the database, not by a check-then-insert: each key is claimed
 * with an upsert on the (form, key) primary key that only overwrites a row older than the
 * window, so concurrent duplicates, here or in another instance, produce one record. Items
 * of one batch with the same key are folded first (a statement may not touch one row
 * twice): the first is the leader and is written; the later ones replay it.
 */
export interface Folded {
  /** Indexes of the items to write: every item without a key, and each key's first item. */
  readonly writers: readonly number[];
  /** Later items with a key already used in the batch, and the index of its first item. */
  readonly followers: readonly { index: number; leader: number }[];
}

/** What became of one written item: stored, or its key already named another submission. */
export type WriterResult = { readonly stored: true } | { readonly stored: false; readonly original: string };

export function fold(items: readonly PreparedSubmission[]): Folded {
  const leaderOf = new Map<string, number>();
  const writers: number[] = [];
  const followers: { index: number; leader: number }[] = [];
  items.forEach((item, index) => {
    const key = item.submission.idempotency_key;
    if (key === null || key === undefined) {
      writers.push(index);
      return;
    }
    const identity = keyIdentity(item.submission.form_id, key);
    const leader = leaderOf.get(identity);
    if (leader === undefined) {
      leaderOf.set(identity, index);
      writers.push(index);
    } else {
      followers.push({ index, leader });
    }
  });
  return { writers, followers };
}

export function keyIdentity(formId: string, key: string): string {
  return `${formId}\u0000${key}`;
}

/** Every item's outcome, from the results of the written ones (one per writer, in order). */
export function assembleOutcomes(items: readonly PreparedSubmission[], folded: Folded, results: readonly WriterResult[]): SubmissionOutcome[] {
  if (results.length !== folded.writers.length) throw new Error('a batch answered without one result per written submission');
  const outcomes = new Array<SubmissionOutcome | undefined>(items.length);
  folded.writers.forEach((index, position) => {
    const result = results[position]!;
    outcomes[index] = result.stored ? { id: items[index]!.submission.id, replayed: false } : { id: result.original, replayed: true };
  });
  for (const { index, leader } of folded.followers) {
    const original = outcomes[leader];
    if (!original) throw new Error('idempotency leader without an outcome');
    outcomes[index] = { id: original.id, replayed: true };
  }
  return outcomes.map((outcome) => {
    if (!outcome) throw new Error('submission without an outcome');
    return outcome;
  });
}
