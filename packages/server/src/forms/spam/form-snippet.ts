import type { CaptchaKind } from '../../store/schema.js';
import { altchaWidgetPath } from './altcha-widget.js';

/**
 * The HTML a form's page shows to paste (docs/form-endpoint.md): a form posting to the
 * endpoint, with the honeypot field and what its captcha needs. ALTCHA's widget comes from the service itself;
 * Turnstile and hCaptcha load their providers' scripts, as they must, with the site key the
 * agency gets from the provider (only the secret key is kept here).
 */
export function formSnippet(endpointUrl: string, captcha: CaptchaKind): string {
  const origin = endpointUrl.replace(/\/api\/f\/[^/]+$/, '');
  const head: Record<CaptchaKind, string[]> = {
    none: [],
    altcha: [`<script async defer type="module" src="${origin}${altchaWidgetPath}"></script>`],
    turnstile: ['<script async defer src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>'],
    hcaptcha: ['<script async defer src="https://js.hcaptcha.com/1/api.js"></script>'],
  };
  const widget: Record<CaptchaKind, string[]> = {
    none: [],
    altcha: [`  <altcha-widget challengeurl="${endpointUrl}/challenge"></altcha-widget>`],
    turnstile: ['  <div class="cf-turnstile" data-sitekey="YOUR_TURNSTILE_SITE_KEY"></div>'],
    hcaptcha: ['  <div class="h-captcha" data-sitekey="YOUR_HCAPTCHA_SITE_KEY"></div>'],
  };
  return [
    ...head[captcha],
    `<form action="${endpointUrl}" method="post" enctype="multipart/form-data">`,
    '  <label>Email <input type="email" name="email" required></label>',
    '  <label>Message <textarea name="message"></textarea></label>',
    '  <!-- The honeypot: people never see it; a bot that fills it in lands in Spam. -->',
    '  <input name="x-service-honeypot" tabindex="-1" autocomplete="off" aria-hidden="true" style="position:absolute;left:-9999px">',
    ...widget[captcha],
    '  <button type="submit">Send</button>',
    '</form>',
  ].join('\n');
}
