/** A file the service serves from memory as it is (a script of its own): its bytes, a strong ETag, and how long it may be cached. */
export interface ServedAsset {
  readonly body: Buffer;
  /** A strong ETag from the content's hash. */
  readonly etag: string;
  readonly cacheControl: string;
}
