import type { Readable } from 'node:stream';

/**
 * File contents addressed by their SHA-256. Contents are staged while a request is read
 * and only made permanent once the whole request is accepted, so a rejected request
 * leaves nothing behind. Client file names are never used as paths.
 */
export interface FileStore {
  /** Reads `content` to its end, hashing it; nothing is permanent until `commit()`. */
  stage(content: AsyncIterable<Uint8Array>): Promise<StagedFile>;
  /**
   * The stored contents, or null when no file has that hash; with `range`, only the bytes
   * from `start` to `end` (both included, within the file) for an HTTP byte range.
   */
  open(sha256: string, range?: ByteRange): Promise<Readable | null>;
  /** Which of `sha256s` are stored (what a deploy still has to upload is the rest). */
  has(sha256s: readonly string[]): Promise<Set<string>>;
  /** Removes the contents (nothing when there are none); the caller knows nothing refers to them. */
  remove(sha256: string): Promise<void>;
}

export interface StagedFile {
  readonly sha256: string;
  readonly size: number;
  /** Makes the contents durable under their hash (idempotent: equal contents are stored once). */
  commit(): Promise<void>;
  /** Drops the staged contents. */
  discard(): Promise<void>;
}

export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

export const sha256Pattern = /^[0-9a-f]{64}$/;
