import type { Readable } from 'node:stream';
import type { HeldFile, HoldOptions } from './held-files.js';

/**
 * File contents addressed by their SHA-256. Contents are staged while a request is read
 * and only made permanent once the whole request is accepted, so a rejected request
 * leaves nothing behind. Client file names are never used as paths.
 */
export interface FileStore {
  /**
   * Reads `content` to its end, hashing it; nothing is permanent until `commit()`. With
   * `holdUpTo`, a file of at most that many bytes may be held in memory instead (`held`),
   * to be committed with the submission that carries it (held-files.ts).
   */
  stage(content: AsyncIterable<Uint8Array>, options?: HoldOptions): Promise<StagedFile>;
  /** The stored contents (their real size, and a way to read them), or null when no file has that hash. */
  find(sha256: string): Promise<StoredContent | null>;
  /**
   * The stored contents, or null when no file has that hash; with `range`, only the bytes
   * from `start` to `end` (both included, within the file) for an HTTP byte range.
   */
  open(sha256: string, range?: ByteRange): Promise<Readable | null>;
  /** The real size of each of `sha256s` that is stored (a deploy's declarations are checked against it). */
  sizes(sha256s: readonly string[]): Promise<Map<string, number>>;
  /**
   * Removes the contents (nothing when there are none); the caller knows nothing holds them.
   * With `storedBefore`, only if they were last stored before that time: contents stored
   * again since (by a request that has not written its record yet) stay. True when removed.
   */
  remove(sha256: string, options?: { storedBefore?: number }): Promise<boolean>;
  /** The hashes of the contents last stored before `before`, in no particular order: the sweep's candidates. */
  storedBefore(before: number): AsyncIterable<string>;
}

/** Stored contents as found: the size of what is stored, never what anyone declared. */
export interface StoredContent {
  readonly size: number;
  /** The bytes, or those of `range` (both ends included, within the file). */
  read(range?: ByteRange): Readable;
}

export interface StagedFile {
  readonly sha256: string;
  readonly size: number;
  /**
   * The whole content, when the file is held in memory: Store.commitSubmissions can then
   * commit it in the batch's own transaction, after which `discard()` frees the memory.
   */
  readonly held?: HeldFile;
  /**
   * Makes the contents durable under their hash on their own (idempotent: equal contents are
   * stored once, and storing them again moves their time on, for the sweep's grace).
   */
  commit(): Promise<void>;
  /** Drops the staged contents (what a transaction already committed stays). */
  discard(): Promise<void>;
}

export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

export const sha256Pattern = /^[0-9a-f]{64}$/;
