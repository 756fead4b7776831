import type { SubmissionFile } from '@svc/protocol';
import { newId } from '../lib/ids.js';
import { insertEvent } from '../store/queries/outbox.js';
import { deleteSubmission as deleteSubmissionRow, eraseEventCopies } from '../store/queries/submission-changes.js';
import type { Db } from '../store/store.js';
import { isoTime } from '../lib/iso-time.js';

/** Where an erased submission belonged: what its tombstones and its deletion event name. */
export interface ErasureScope {
  readonly workspaceSlug: string;
  readonly projectId: string;
  readonly projectName: string;
  readonly form: { readonly endpointId: string; readonly slug: string; readonly name: string | null };
}

/**
 * Erases one submission inside the caller's transaction (docs/privacy.md), whoever deletes
 * it (`svc submissions delete`, `erase --email`, `push --prune`): its events keep only a
 * tombstone, their pending deliveries fail without another attempt, the answers kept from
 * receivers go, the row and its idempotency key go, and `form.submission.deleted` is
 * written. Its files are the caller's to release once committed (`releaseContents`).
 */
export async function eraseSubmissionRecord(
  trx: Db,
  scope: ErasureScope,
  submission: { id: string; created_at: number },
  events: readonly { id: string; type: string; created_at: number }[],
  now: number,
): Promise<void> {
  const deletedAt = isoTime(now);
  const form = { id: scope.form.endpointId, slug: scope.form.slug, name: scope.form.name };
  const erased = { id: submission.id, createdAt: isoTime(submission.created_at), deletedAt };
  const envelope = (id: string, type: string, createdAt: string) =>
    JSON.stringify({ id, type, createdAt, workspace: scope.workspaceSlug, project: scope.projectName, data: { form, submission: erased } });
  await eraseEventCopies(trx, events, (event) => envelope(event.id, event.type, isoTime(event.created_at)), 'cancelled: the submission was deleted', now);
  await deleteSubmissionRow(trx, submission.id);
  const eventId = newId('evt', now);
  await insertEvent(trx, { id: eventId, projectId: scope.projectId, type: 'form.submission.deleted', payload: envelope(eventId, 'form.submission.deleted', deletedAt), now });
}

/** The content hashes of a submission's files (its `files` column). */
export function fileHashes(files: string): string[] {
  return (JSON.parse(files) as SubmissionFile[]).map((file) => file.sha256);
}
