/** Why a build did not produce its output; stable codes that the build queue records. */
export type BuildErrorCode = 'fetch_failed' | 'build_failed' | 'timeout' | 'canceled' | 'sandbox_unavailable' | 'output_missing' | 'disk_limit';

/** A build that ended without output. `message` is one line, written for the person reading the build's page. */
export class BuildError extends Error {
  override readonly name = 'BuildError';
  constructor(
    readonly code: BuildErrorCode,
    message: string,
  ) {
    super(message);
  }
}
