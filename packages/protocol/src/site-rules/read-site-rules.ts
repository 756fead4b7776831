import { open } from 'node:fs/promises';
import { parseHeaders, type HeaderBlock } from './headers-file.js';
import { parseRedirects, type RedirectRule } from './redirects-file.js';
import { siteRulesLimits, type SiteRulesFile } from './rule-lines.js';

/** A deploy's rules, parsed: none when it has neither file. */
export interface SiteRules {
  readonly redirects: readonly RedirectRule[];
  readonly headers: readonly HeaderBlock[];
}

export const noSiteRules: SiteRules = { redirects: [], headers: [] };

/**
 * The start of a rules file (at least `maxBytes` bytes of it, when it has them) and its
 * whole size; null when the deploy has no such file at its root.
 */
export type RulesFileReader = (file: SiteRulesFile, maxBytes: number) => Promise<{ bytes: Uint8Array; size: number } | null>;

/**
 * The deploy's `_redirects` and `_headers`, parsed by the one parser the CLI
 * (`svc deploy --dry-run`) and the server (a deploy finalised, a build's output, hosting)
 * share. A file past its size limit is read only up to it. Throws `validation_failed`
 * (`_redirects:LINE: why`) for the first problem, `_redirects` first.
 */
export async function readSiteRules(read: RulesFileReader): Promise<SiteRules> {
  const redirects = await read('_redirects', siteRulesLimits._redirects.bytes + 1);
  const parsedRedirects = redirects === null ? [] : parseRedirects(redirects.bytes, redirects.size);
  const headers = await read('_headers', siteRulesLimits._headers.bytes + 1);
  const parsedHeaders = headers === null ? [] : parseHeaders(headers.bytes, headers.size);
  return { redirects: parsedRedirects, headers: parsedHeaders };
}

/** A reader of the rules files among a folder's files as a deploy takes them (`walkSite`'s entries). */
export function siteEntriesReader(entries: readonly { readonly path: string; readonly absolute: string }[]): RulesFileReader {
  return async (file, maxBytes) => {
    const entry = entries.find((candidate) => candidate.path === file);
    if (entry === undefined) return null;
    const handle = await open(entry.absolute, 'r');
    try {
      const { size } = await handle.stat();
      const bytes = new Uint8Array(Math.min(size, maxBytes));
      let read = 0;
      while (read < bytes.length) {
        const { bytesRead } = await handle.read(bytes, read, bytes.length - read, read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return { bytes: bytes.subarray(0, read), size };
    } finally {
      await handle.close();
    }
  };
}
