/** Every reason `verify()` / `verifyAsync()` can reject a delivery, in the order they are checked. */
export const WEBHOOK_VERIFICATION_ERROR_CODES = [
  'body_not_raw',
  'missing_header',
  'malformed_header',
  'signature_mismatch',
  'timestamp_out_of_range',
] as const;

export type WebhookVerificationErrorCode = (typeof WEBHOOK_VERIFICATION_ERROR_CODES)[number];

/**
 * Thrown when a delivery cannot be trusted. Answer it with a 4xx status; `code` is stable and
 * safe to log, `message` is meant for the developer integrating the receiver.
 *
 * Programming errors (no secret, a timestamp that is not a number, ...) are `TypeError`s instead.
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly code: WebhookVerificationErrorCode;

  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
