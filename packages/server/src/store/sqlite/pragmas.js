// @ts-check
// The settings of every SQLite connection (the main one and the writer thread's), in one
// place. JavaScript so that the writer thread can load it from src/ (tests) and dist/ alike.

/**
 * WAL, fsync on every commit, foreign keys enforced, how long to wait for a lock, and
 * deleted content overwritten with zeros (erasure must not leave fields in free pages;
 * docs/privacy.md).
 * @param {number} busyTimeoutMs
 * @returns {string[]}
 */
export function connectionPragmas(busyTimeoutMs) {
  return ['journal_mode = WAL', 'synchronous = FULL', 'foreign_keys = ON', `busy_timeout = ${busyTimeoutMs}`, 'secure_delete = ON'];
}
