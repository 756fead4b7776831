import type { SubmissionFile } from '@svc/protocol';
import type { SubmissionInfo } from '@svc/protocol/api';
import type { SubmissionListingRow } from '../store/queries/submissions.js';
import { isoTime } from '../lib/iso-time.js';

/** A stored submission as the CLI API shows it: fields as posted, files by name (no hashes). */
export function toSubmissionInfo(row: SubmissionListingRow): SubmissionInfo {
  const files = JSON.parse(row.files) as SubmissionFile[];
  return {
    id: row.id,
    state: row.state,
    createdAt: isoTime(row.created_at),
    fields: JSON.parse(row.fields) as Record<string, unknown>,
    files: files.map(({ field, name, size, contentType }) => ({ field, name, size, contentType })),
    ...(row.state === 'spam' && row.spam_reason !== null ? { spamReason: row.spam_reason } : {}),
  };
}
