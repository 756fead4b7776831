/** Limits on what one submission may carry (docs/form-endpoint.md); all configurable. */
export interface FormLimits {
  /** Largest JSON body, in bytes. */
  readonly jsonBodyBytes: number;
  /** Most files in one multipart submission. */
  readonly files: number;
  /** Largest file, in bytes. */
  readonly fileBytes: number;
  /** Largest multipart body (files and fields together), in bytes. */
  readonly multipartBytes: number;
  /** Most fields in one submission (JSON top-level keys or multipart text parts). */
  readonly fields: number;
  /** Deepest nesting of a JSON value (objects and arrays). */
  readonly jsonDepth: number;
  /**
   * Files of at most this many bytes are held in memory and committed in their
   * submission's transaction (store/files/held-files.ts); 0: every file on its own.
   */
  readonly heldFileBytes: number;
}

const MiB = 1024 * 1024;

export const defaultFormLimits: FormLimits = {
  jsonBodyBytes: 1 * MiB,
  files: 10,
  fileBytes: 10 * MiB,
  multipartBytes: 25 * MiB,
  fields: 200,
  jsonDepth: 32,
  heldFileBytes: 1 * MiB,
};

/** The 24-hour idempotency window of the specification. */
export const idempotencyWindowMs = 24 * 60 * 60 * 1000;

/** Idempotency keys longer than this are refused with 400. */
export const maxIdempotencyKeyLength = 255;
