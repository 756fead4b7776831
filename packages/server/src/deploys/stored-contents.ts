import { deploysList, unheldContents } from '../store/queries/contents.js';
import type { Store } from '../store/store.js';

/** Candidates the sweep checks at once. */
const sweepBatch = 500;

/**
 * Removes each of these contents that nothing holds any more (docs/privacy.md, "Files and
 * who holds them"): after a submission or request is deleted, and after a request that
 * stored contents failed to write its record. With `storedBefore`, only contents last
 * stored before that time (the sweep). Returns how many were removed.
 */
export async function releaseContents(store: Store, sha256s: readonly string[], storedBefore?: number): Promise<number> {
  if (sha256s.length === 0) return 0;
  const removed: string[] = [];
  for (const sha256 of await unheldContents(store.db, sha256s)) {
    if (await store.files.remove(sha256, storedBefore === undefined ? {} : { storedBefore })) removed.push(sha256);
  }
  // A deploy made before contents were held per workspace may list one: hosting forgets what it holds in memory.
  if (removed.length > 0 && (await deploysList(store.db, removed))) store.signals.sites.announce();
  return removed.length;
}

/**
 * The sweep (docs/privacy.md): contents nothing holds, last stored before `before`, are
 * removed. Contents stored more recently are left alone, whoever stored them: a deploy,
 * submission or request in the middle of being stored writes its record only after its
 * contents, and storing equal contents again moves their time on.
 */
export async function sweepContents(store: Store, before: number): Promise<number> {
  let removed = 0;
  let batch: string[] = [];
  for await (const sha256 of store.files.storedBefore(before)) {
    batch.push(sha256);
    if (batch.length < sweepBatch) continue;
    removed += await releaseContents(store, batch, before);
    batch = [];
  }
  return removed + (await releaseContents(store, batch, before));
}
