import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServedAsset } from '../../lib/served-asset.js';

/** Where the service serves the `altcha` widget (docs/form-endpoint.md, "ALTCHA"). */
export const altchaWidgetPath = '/altcha.js';

/** Solves the widget's challenges on a page without Web Crypto (plain http): appended to the widget. */
const withoutWebCrypto = fileURLToPath(new URL('../../../assets/altcha/without-web-crypto.js', import.meta.url));

/**
 * The `altcha` package's widget (its ES module build, the web component `<altcha-widget>`
 * with its worker inlined), read from node_modules once at start, followed by our solver
 * for pages that have no Web Crypto (docs/form-endpoint.md, "ALTCHA on a plain-http page"):
 * pages load it from the service itself, so a form's captcha makes no third-party request.
 * Null when the package is missing, which a normal install never is.
 */
export async function loadAltchaWidget(): Promise<ServedAsset | null> {
  try {
    const directory = dirname(createRequire(import.meta.url).resolve('altcha'));
    const body = Buffer.concat([await readFile(join(directory, 'altcha.js')), Buffer.from('\n'), await readFile(withoutWebCrypto)]);
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`, cacheControl: 'public, max-age=3600' };
  } catch {
    return null;
  }
}
