import { ServiceError } from '@svc/protocol';

/** Any thrown value as a ServiceError; unexpected ones keep their cause for debugging. */
export function toServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ServiceError('internal', `unexpected failure: ${message}`, undefined, { cause: error });
}
