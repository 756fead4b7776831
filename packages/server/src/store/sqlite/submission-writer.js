// @ts-check
// The embedded backend's write path for form submissions, in a thread of its own.
// better-sqlite3 is synchronous: run on the main thread, every group commit (and its
// fsync) would stop the event loop. Here a whole batch is one message: claim the
// idempotency keys, insert the submissions and their outbox events, commit, answer.
// JavaScript (type-checked with its JSDoc) so that the same file runs under the TypeScript
// sources (tests) and the build; submission-thread.ts is its other half, and the main thread's
// write lock keeps this connection and the main one from ever waiting on each other.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { submissionCommitter } from './commit-submissions.js';
import { assertSameFile, fileIdentity } from './file-identity.js';
import { connectionPragmas } from './pragmas.js';

/** @typedef {import('./commit-submissions.js').Batch & { id: number }} BatchRequest */

if (!parentPort) throw new Error('submission-writer.js runs as a worker thread');
const port = parentPort;
const { file, busyTimeoutMs } = /** @type {{ file: string, busyTimeoutMs: number }} */ (workerData);

const db = new Database(file);
for (const pragma of connectionPragmas(busyTimeoutMs)) db.pragma(pragma);

const identity = fileIdentity(file);
const commit = submissionCommitter(db);

port.on('message', (/** @type {BatchRequest | { id: number, close: true }} */ request) => {
  if ('close' in request) {
    db.close();
    port.postMessage({ id: request.id });
    port.close();
    return;
  }
  try {
    assertSameFile(file, identity);
    port.postMessage({ id: request.id, results: commit(request) });
  } catch (caught) {
    const error = /** @type {Error & { code?: string }} */ (caught);
    port.postMessage({ id: request.id, error: { message: error.message, code: error.code } });
  }
});
