import { listProjectDomains } from '../../store/queries/domains.js';
import type { ResolvedForm } from '../../store/queries/forms.js';
import { spendSolution } from '../../store/queries/spent-solutions.js';
import type { Db } from '../../store/store.js';
import type { SecretBox } from '../../webhooks/secret-box.js';
import type { AltchaChallenges } from './altcha-challenges.js';
import { captchaSecretContext } from './captcha-secret.js';
import { checkCaptcha, type CaptchaServices, type CaptchaVerdict } from './captcha-check.js';
import { countLinks } from './links.js';
import { originAllowed } from './origins.js';
import { siteverify } from './siteverify.js';

/**
 * The form endpoint's spam checks beyond the honeypot (docs/form-endpoint.md, "Spam
 * protection"), for one form at a time: which origins may post, the captcha, the links.
 */
export class SpamProtection {
  private readonly captcha: CaptchaServices;

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    altcha: AltchaChallenges,
    verifyUrls: { readonly turnstile: string; readonly hcaptcha: string },
  ) {
    this.captcha = { altcha, spend: (digest, expiresAt) => spendSolution(db, digest, expiresAt), siteverify, verifyUrls, now: Date.now };
  }

  /** A browser post (it sends `Origin`) from a page the form does not allow is refused; a script's is not. */
  async originAllowed(form: ResolvedForm, origin: string | undefined): Promise<boolean> {
    return originAllowed(origin, form.origins, async () => (await listProjectDomains(this.db, form.projectId)).map((domain) => domain.hostname));
  }

  /** The post's captcha solution, checked; `solutions` holds the fields the widgets post. */
  async checkCaptcha(form: ResolvedForm, solutions: Readonly<Record<string, unknown>>, clientIp: string | null): Promise<CaptchaVerdict> {
    const secret = form.captchaSecret === null ? null : this.box.open(form.captchaSecret, captchaSecretContext(form.id));
    return checkCaptcha({ endpointId: form.endpointId, captcha: form.captcha, secret }, solutions, clientIp, this.captcha);
  }

  /** More links than the form allows: the submission goes to Spam with the reason `links`. */
  tooManyLinks(form: ResolvedForm, fields: Readonly<Record<string, unknown>>): boolean {
    return form.maxLinks !== null && countLinks(fields) > form.maxLinks;
  }
}
