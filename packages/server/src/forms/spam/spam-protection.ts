import type { ResolvedForm } from '../../store/queries/forms.js';
import { spendSolution } from '../../store/queries/spent-solutions.js';
import type { Db } from '../../store/store.js';
import type { ProjectSites } from '../../sites/project-sites.js';
import { SecretBoxError, type SecretBox } from '../../secrets/secret-box.js';
import type { AltchaChallenges } from './altcha-challenges.js';
import { captchaSecretContext } from './captcha-secret.js';
import { checkCaptcha, type CaptchaServices, type CaptchaVerdict } from './captcha-check.js';
import { countLinks } from './links.js';
import { postOriginAllowed } from './origins.js';
import { siteverify } from './siteverify.js';

/**
 * The form endpoint's spam checks beyond the honeypot (docs/form-endpoint.md, "Spam
 * protection"), for one form at a time: which origins may post, the captcha, the links.
 */
export class SpamProtection {
  private readonly captcha: CaptchaServices;

  constructor(
    db: Db,
    /** Where a project's hostnames are held (`--origins project`), not read on every post. */
    private readonly sites: Pick<ProjectSites, 'hostnames'>,
    private readonly box: SecretBox,
    altcha: AltchaChallenges,
    verifyUrls: { readonly turnstile: string; readonly hcaptcha: string },
    /** The operations' clock (context.now): ALTCHA expiries are read against it. */
    now: () => number,
  ) {
    this.captcha = { altcha, spend: (digest, expiresAt) => spendSolution(db, digest, expiresAt), siteverify, verifyUrls, now };
  }

  /** A browser post (it sends `Origin`) from a page the form does not allow is refused; a script's is not. */
  async originAllowed(form: ResolvedForm, origin: string | undefined): Promise<boolean> {
    return postOriginAllowed(origin, form.origins, () => this.sites.hostnames(form.projectId));
  }

  /** The post's captcha solution, checked; `solutions` holds the fields the widgets post. */
  async checkCaptcha(form: ResolvedForm, solutions: Readonly<Record<string, unknown>>): Promise<CaptchaVerdict> {
    return checkCaptcha({ endpointId: form.endpointId, captcha: form.captcha, secret: this.providerSecret(form) }, solutions, this.captcha);
  }

  /**
   * The provider's secret key, opened only for the captchas that send it (Turnstile,
   * hCaptcha). One that does not open (another encryption key, a damaged value) is as if
   * none were set: the post cannot be checked and is kept in Spam (`captcha_unverified`).
   */
  private providerSecret(form: ResolvedForm): string | null {
    if ((form.captcha !== 'turnstile' && form.captcha !== 'hcaptcha') || form.captchaSecret === null) return null;
    try {
      return this.box.open(form.captchaSecret, captchaSecretContext(form.id));
    } catch (error) {
      if (error instanceof SecretBoxError) return null;
      throw error;
    }
  }

  /** More links than the form allows: the submission goes to Spam with the reason `links`. */
  tooManyLinks(form: ResolvedForm, fields: Readonly<Record<string, unknown>>): boolean {
    return form.maxLinks !== null && countLinks(fields) > form.maxLinks;
  }
}
