import { ServiceError } from '@svc/protocol';
import { honeypotCheck, passes, type SubmissionCheck } from '../submission-checks.js';
import type { SpamProtection } from './spam-protection.js';

/**
 * A missing or failed captcha refuses the post (422 `errors.captcha`, nothing stored); a
 * provider that gave no verdict keeps it in Spam (`captcha_unverified`), never lost. The
 * visitor's address is not sent to the provider: it is optional there, and `--form-ip`
 * may say it is not to be kept at all.
 */
export function captchaCheck(protection: SpamProtection): SubmissionCheck {
  return async ({ form, solutions }) => {
    const verdict = await protection.checkCaptcha(form, solutions);
    if (verdict.outcome === 'failed') throw new ServiceError('validation_failed', `captcha ${verdict.message}`, { errors: { captcha: verdict.message } });
    return verdict.outcome === 'unverified' ? { spam: true, reason: 'captcha_unverified' } : passes;
  };
}

/** More links than the form allows: Spam, reason `links`. */
export function linksCheck(protection: SpamProtection): SubmissionCheck {
  return ({ form, fields }) => (protection.tooManyLinks(form, fields) ? { spam: true, reason: 'links' } : passes);
}

/**
 * The form endpoint's checks with spam protection (docs/form-endpoint.md, "Spam protection"),
 * in order: the captcha first, so that a post without a solution is refused (and stored
 * nowhere) whatever else it holds; then the honeypot; then the links.
 */
export function spamChecks(protection: SpamProtection): readonly SubmissionCheck[] {
  return [captchaCheck(protection), honeypotCheck, linksCheck(protection)];
}
