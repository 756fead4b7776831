// @ts-check
// The identity of the open database file, checked before every commit: a data dir deleted
// (or replaced) while the server runs must refuse writes, not acknowledge them into a file
// nobody will ever open again. JavaScript so that the writer thread loads it too.
import { statSync } from 'node:fs';

/**
 * @param {string} path
 * @returns {{ dev: number, ino: number }}
 */
export function fileIdentity(path) {
  const { dev, ino } = statSync(path);
  return { dev, ino };
}

/**
 * Throws an error with code SVC_STORE_GONE (store/dependency-failure.ts) when `path` is no
 * longer the file `expected` names. A stat costs microseconds; a commit, an fsync.
 * @param {string} path
 * @param {{ dev: number, ino: number }} expected
 */
export function assertSameFile(path, expected) {
  const now = statSync(path, { throwIfNoEntry: false });
  if (now && now.ino === expected.ino && now.dev === expected.dev) return;
  const error = /** @type {Error & { code: string, path: string }} */ (new Error(`${path} was deleted or replaced while the server had it open`));
  error.code = 'SVC_STORE_GONE';
  error.path = path;
  throw error;
}
