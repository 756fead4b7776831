import type { CaptchaKind } from '../../store/schema.js';
import type { AltchaChallenges } from './altcha-challenges.js';
import type { SiteverifyOutcome, SiteverifyRequest } from './siteverify.js';

/** The field each captcha's solution arrives in (the widgets' own names). */
export const solutionFields = {
  altcha: 'altcha',
  turnstile: 'cf-turnstile-response',
  hcaptcha: 'h-captcha-response',
} as const satisfies Record<Exclude<CaptchaKind, 'none'>, string>;

/**
 * Every field a captcha widget posts: instructions, never stored, whichever captcha the form
 * uses now (a page may still carry an old widget). hCaptcha also fills `g-recaptcha-response`.
 */
const instructionFields = new Set<string>([...Object.values(solutionFields), 'g-recaptcha-response']);

/** The fields without the captcha's; the removed ones are looked up in `solutions`. */
export function separateSolutions(fields: Readonly<Record<string, unknown>>): { fields: Record<string, unknown>; solutions: Record<string, unknown> } {
  const kept: Record<string, unknown> = {};
  const solutions: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (instructionFields.has(name)) solutions[name] = value;
    else kept[name] = value;
  }
  return { fields: kept, solutions };
}

/** passed: store as usual; unverified: the provider gave no verdict, store in Spam; failed: 422, store nothing. */
export type CaptchaVerdict = { readonly outcome: 'passed' } | { readonly outcome: 'unverified' } | { readonly outcome: 'failed'; readonly message: string };

export interface CaptchaForm {
  readonly endpointId: string;
  readonly captcha: CaptchaKind;
  /** The provider's secret key, opened; null for none and ALTCHA, and when it is not set or does not open. */
  readonly secret: string | null;
}

export interface CaptchaServices {
  readonly altcha: AltchaChallenges;
  /** Marks a solution spent; false when it was already. */
  readonly spend: (digest: string, expiresAt: number) => Promise<boolean>;
  readonly siteverify: (request: SiteverifyRequest) => Promise<SiteverifyOutcome>;
  readonly verifyUrls: { readonly turnstile: string; readonly hcaptcha: string };
  readonly now: () => number;
}

const altchaProblems = {
  missing: 'the captcha was not solved',
  malformed: 'the captcha solution is not valid',
  forged: 'the captcha solution is not valid',
  expired: 'the captcha expired; solve it again',
} as const;

/** Checks the solution a post carries for its form's captcha (docs/form-endpoint.md, "Spam protection"). */
export async function checkCaptcha(form: CaptchaForm, solutions: Readonly<Record<string, unknown>>, services: CaptchaServices): Promise<CaptchaVerdict> {
  if (form.captcha === 'none') return { outcome: 'passed' };
  if (form.captcha === 'altcha') {
    const check = await services.altcha.verify(solutions[solutionFields.altcha], form.endpointId, services.now());
    if (!check.valid) return { outcome: 'failed', message: altchaProblems[check.problem] };
    if (!(await services.spend(check.digest, check.expiresAt))) return { outcome: 'failed', message: 'the captcha solution was used already; solve it again' };
    return { outcome: 'passed' };
  }
  const token = solutions[solutionFields[form.captcha]];
  if (typeof token !== 'string' || token === '') return { outcome: 'failed', message: 'the captcha was not solved' };
  if (token.length > 4_096) return { outcome: 'failed', message: 'the captcha solution is not valid' };
  // A form whose secret is not set, or does not open, cannot check anything: kept in Spam.
  if (form.secret === null) return { outcome: 'unverified' };
  const outcome = await services.siteverify({ url: services.verifyUrls[form.captcha], secret: form.secret, token });
  if (outcome === 'passed') return { outcome: 'passed' };
  if (outcome === 'unverified') return { outcome: 'unverified' };
  return { outcome: 'failed', message: 'the captcha was not solved' };
}
