// @ts-check
// The batch write of form submissions on a better-sqlite3 connection: claim the
// idempotency keys, insert the submissions, their outbox events, their held files and which
// contents they hold, in one immediate transaction. JavaScript checked by TypeScript,
// loaded by the writer thread (submission-writer.js).
import { outboxColumns } from '../queries/outbox.js';
/**
 * The rows are the store's own types (../schema.ts); the outcome type is the port's.
 * @typedef {import('../submission-batch.js').PreparedSubmission} Writer
 * @typedef {{ writers: readonly Writer[], now: number, idempotencyWindowMs: number }} Batch
 * @typedef {import('../submission-batch.js').WriterResult} WriterResult
 */

/**
 * @param {import('better-sqlite3').Database} db
 * @returns {(batch: Batch) => WriterResult[]}
 */
export function submissionCommitter(db) {
  // A key row older than the window may be taken over; a younger one is kept and wins.
  const claimKey = db.prepare(`INSERT INTO idempotency_keys (form_id, key, submission_id, created_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (form_id, key) DO UPDATE SET submission_id = excluded.submission_id, created_at = excluded.created_at
    WHERE idempotency_keys.created_at < ? RETURNING submission_id`);
  const originalOf = db.prepare('SELECT submission_id FROM idempotency_keys WHERE form_id = ? AND key = ?').pluck();
  const insertSubmission = db.prepare(`INSERT INTO submissions (id, form_id, state, fields, files, client_ip, user_agent, idempotency_key, spam_reason, created_at)
    VALUES (@id, @form_id, @state, @fields, @files, @client_ip, @user_agent, @idempotency_key, @spam_reason, @created_at)`);
  // The outbox row as outboxRow built it, every column.
  const insertEvent = db.prepare(`INSERT INTO events (${outboxColumns.join(', ')}) VALUES (${outboxColumns.map((column) => `@${column}`).join(', ')})`);
  // Equal contents are stored once (the hash is the key); storing them again moves their
  // time on, so the sweep's grace starts over (docs/privacy.md).
  const insertFile = db.prepare(`INSERT INTO file_blobs (sha256, size, content, created_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (sha256) DO UPDATE SET created_at = excluded.created_at`);
  // Which contents the submission holds (erasure, the sweep and the upload quota read it).
  const insertContent = db.prepare(`INSERT OR IGNORE INTO submission_contents (submission_id, sha256, project_id, size) VALUES (?, ?, ?, ?)`);

  const commitBatch = db.transaction((/** @type {Batch} */ request) => {
    const cutoff = request.now - request.idempotencyWindowMs;
    /** @type {WriterResult[]} */
    const results = [];
    for (const { submission, event, heldFiles } of request.writers) {
      if (submission.idempotency_key !== null) {
        const claimed = claimKey.get(submission.form_id, submission.idempotency_key, submission.id, request.now, cutoff);
        if (claimed === undefined) {
          results.push({ stored: false, original: /** @type {string} */ (originalOf.get(submission.form_id, submission.idempotency_key)) });
          continue;
        }
      }
      insertSubmission.run(submission);
      insertEvent.run(event);
      if (submission.files !== '[]') {
        for (const file of /** @type {{ sha256: string, size: number }[]} */ (JSON.parse(submission.files))) insertContent.run(submission.id, file.sha256, event.project_id, file.size);
      }
      for (const file of heldFiles ?? []) insertFile.run(file.sha256, file.size, file.content, request.now);
      results.push({ stored: true });
    }
    return results;
  });
  return (batch) => commitBatch.immediate(batch);
}
