import { errorCodes, ServiceError } from '@svc/protocol';
import type { FormLimits } from './limits.js';
import { urlencodedType } from './urlencoded-body.js';

export const acceptedTypes = `application/json, multipart/form-data or ${urlencodedType}`;

/**
 * A failure of the form endpoint with a message that says what to do: where the failure
 * came with only its code's general words (Fastify refused the content type or the body's
 * size before the endpoint saw it), which content types are taken and what the limits are.
 */
export function withFormMessage(failure: ServiceError, limits: FormLimits, contentType: string | undefined): ServiceError {
  if (failure.message !== errorCodes[failure.code].description) return failure;
  if (failure.code === 'unsupported_media_type') {
    const sent = contentType === undefined ? 'no content type' : `content type ${contentType.slice(0, 100)}`;
    return new ServiceError(failure.code, `a form endpoint takes ${acceptedTypes}; this request had ${sent}`, failure.details, { cause: failure.cause });
  }
  if (failure.code === 'payload_too_large') {
    const message = `a JSON or urlencoded submission carries at most ${limits.jsonBodyBytes} bytes; a multipart one ${limits.multipartBytes} bytes, ${limits.files} files of ${limits.fileBytes} bytes each, and ${limits.fields} fields`;
    return new ServiceError(failure.code, message, failure.details, { cause: failure.cause });
  }
  return failure;
}
