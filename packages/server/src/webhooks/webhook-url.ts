import { ipLiteralHost, privateTargetsHint, refusedAddressReason } from '../net/address-policy.js';

export const maxWebhookUrlLength = 2_048;

export type WebhookUrlCheck = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly problem: string };

/**
 * A webhook URL: http or https, a host, no user name or password (they would be stored and
 * shown in clear), at most 2,048 characters. An IP literal that webhooks may not reach is
 * refused now, unless private targets are allowed; host names are checked at connect time.
 * The URL is returned normalised.
 */
export function checkWebhookUrl(text: unknown, options: { readonly allowPrivateTargets: boolean }): WebhookUrlCheck {
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, problem: 'is required' };
  if (text.length > maxWebhookUrlLength) return { ok: false, problem: `must be at most ${maxWebhookUrlLength} characters` };
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, problem: 'must be an absolute http:// or https:// URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: 'must be an http:// or https:// URL' };
  if (url.hostname === '') return { ok: false, problem: 'must name a host' };
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'must not contain a user name or password' };
  url.hash = '';
  if (!options.allowPrivateTargets) {
    const host = ipLiteralHost(url);
    const reason = host === null ? null : refusedAddressReason(host);
    if (reason !== null) return { ok: false, problem: `must not point to ${reason} (${host}): ${privateTargetsHint}` };
  }
  return { ok: true, url: url.href };
}
