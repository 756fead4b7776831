import { originAllowed } from '../../sites/page-origin.js';

/** Most origins one form may list. */
export const maxFormOrigins = 50;

/**
 * `--origins any|project|ORIGIN,…` as written, into the text stored with the form: `any`,
 * `project`, or the origins (`https://example.com`, scheme, host and port only), sorted and
 * joined by commas. Throws with the problem in words.
 */
export function normalizeOrigins(text: string): string {
  const trimmed = text.trim();
  const word = trimmed.toLowerCase();
  if (word === 'any' || word === 'project') return word;
  const origins = new Set<string>();
  for (const part of trimmed.split(',').map((item) => item.trim()).filter((item) => item !== '')) {
    let url: URL;
    try {
      url = new URL(part);
    } catch {
      throw new Error(`"${part}" is not an origin such as https://example.com`);
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
      throw new Error(`"${part}" is not an origin such as https://example.com (scheme, host and port only)`);
    }
    origins.add(url.origin);
  }
  if (origins.size === 0) throw new Error('give any, project, or origins such as https://example.com');
  if (origins.size > maxFormOrigins) throw new Error(`at most ${maxFormOrigins} origins`);
  return [...origins].sort().join(',');
}

/**
 * Whether a browser post from `origin` may reach the form, as its `--origins` setting says
 * (docs/form-endpoint.md, "Allowed origins"). A post without `Origin` (a script, a server)
 * is not a browser's and is let through: the rule keeps other sites' pages from posting,
 * not clients that can send any header they like. `project` is the project's pages as the
 * widget knows them (sites/page-origin.ts); `projectHostnames` is asked only for it.
 */
export async function postOriginAllowed(origin: string | undefined, setting: string, projectHostnames: () => Promise<readonly string[]>): Promise<boolean> {
  if (origin === undefined || setting === 'any') return true;
  if (setting === 'project') return originAllowed(origin, await projectHostnames(), { openWithoutDomains: false });
  let normalized: string;
  try {
    normalized = new URL(origin).origin;
  } catch {
    return false;
  }
  return setting.split(',').includes(normalized);
}
