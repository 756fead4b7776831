import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { formatSize } from '@svc/protocol';
import type { SkippedPath, SkipReason } from '@svc/protocol/site-files';

/** What `svc deploy` tells people about what it skipped, the uploads and where to look (docs/hosting.md). */

const reasonText: Record<SkipReason, string> = {
  hidden: 'name starts with "."',
  node_modules: 'installed dependencies',
  service_json: "the project's service.json",
  svc_state: "svc's own state",
  svcignore: 'listed in .svcignore',
  symlink: 'link to a folder, outside, or to nothing',
};

/** Paths named per kind of reason before "and N more". */
const namedPerGroup = 6;

/**
 * One line saying what was left out, grouped: what is never uploaded, what `.svcignore`
 * lists, the links not followed. Null when nothing was.
 */
export function skippedSummary(skipped: readonly SkippedPath[]): string | null {
  if (skipped.length === 0) return null;
  const groups: [string, readonly SkippedPath[]][] = [
    ['never uploaded', skipped.filter((entry) => entry.reason !== 'svcignore' && entry.reason !== 'symlink')],
    ['listed in .svcignore', skipped.filter((entry) => entry.reason === 'svcignore')],
    ['links not followed', skipped.filter((entry) => entry.reason === 'symlink')],
  ];
  const shown = groups.filter(([, entries]) => entries.length > 0);
  const parts = shown.map(([label, entries]) => {
    const named = entries.slice(0, namedPerGroup).map((entry) => entry.path);
    const more = entries.length > namedPerGroup ? ` and ${entries.length - namedPerGroup} more` : '';
    return `${named.join(', ')}${more} (${label})`;
  });
  const cut = shown.some(([, entries]) => entries.length > namedPerGroup);
  return `Skipped ${skipped.length}: ${parts.join('; ')}${cut ? '. `svc deploy --dry-run` lists them all.' : ''}`;
}

/** "(3 uploaded, the rest already stored)" only when some contents were stored before. */
export function uploadNote(distinctContents: number, uploaded: number): string {
  if (uploaded === 0) return 'nothing uploaded: every file was already stored';
  if (uploaded < distinctContents) return `${uploaded} uploaded, the rest already stored`;
  return `all uploaded`;
}

/**
 * How to look at `siteUrl` before its DNS points at the service: a `Host` header with curl
 * (plain HTTP), `curl --resolve` (HTTPS), or a hosts-file line.
 */
export async function lookBeforeDns(siteUrl: string, apiUrl: string): Promise<string> {
  const site = new URL(siteUrl);
  const api = new URL(apiUrl);
  const address = await addressOf(api.hostname);
  const hostsLine = `"${address ?? '<the service\'s address>'} ${site.hostname}" in /etc/hosts`;
  const curl =
    site.protocol === 'https:'
      ? `curl --resolve ${site.hostname}:${site.port || '443'}:${address ?? '<address>'} ${site.origin}/`
      : `curl -H 'Host: ${site.hostname}' ${api.origin}/`;
  return `(before DNS points ${site.hostname} at the service: ${curl}, or ${hostsLine})`;
}

async function addressOf(hostname: string): Promise<string | null> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 0) return bare;
  if (bare === 'localhost' || bare.endsWith('.localhost')) return '127.0.0.1';
  try {
    return (await lookup(bare)).address;
  } catch {
    return null;
  }
}

/** What a dry run prints for people: the files with their sizes, then what is skipped and why. */
export function dryRunText(input: {
  folder: string;
  environment: string | null;
  files: readonly { path: string; size: number }[];
  skipped: readonly SkippedPath[];
  rules?: { readonly redirects: number; readonly headers: number } | null;
}): string {
  const total = input.files.reduce((sum, file) => sum + file.size, 0);
  const to = input.environment === null ? '' : ` to ${input.environment}`;
  const lines = [`Dry run: nothing uploaded, no deploy made.`, `Would deploy ${input.files.length} ${input.files.length === 1 ? 'file' : 'files'} (${formatSize(total)}) from ${input.folder}${to}:`];
  lines.push(...aligned(input.files.map((file) => [file.path, formatSize(file.size)])));
  if (input.skipped.length === 0) lines.push('Nothing skipped.');
  else lines.push(`Skipped ${input.skipped.length}:`, ...aligned(input.skipped.map((entry) => [entry.path, reasonText[entry.reason]])));
  const rules = rulesSummary(input.files, input.rules ?? null);
  if (rules !== null) lines.push(rules);
  return lines.join('\n');
}

/** What the deploy's rules files hold, once they parsed: "Rules: _redirects 12 rules, _headers 3 blocks (applied, never served as files)." */
export function rulesSummary(files: readonly { path: string }[], counts: { readonly redirects: number; readonly headers: number } | null): string | null {
  if (counts === null) return null;
  const parts: string[] = [];
  if (files.some((file) => file.path === '_redirects')) parts.push(`_redirects ${counts.redirects} ${counts.redirects === 1 ? 'rule' : 'rules'}`);
  if (files.some((file) => file.path === '_headers')) parts.push(`_headers ${counts.headers} ${counts.headers === 1 ? 'block' : 'blocks'}`);
  return parts.length === 0 ? null : `Rules: ${parts.join(', ')} (applied, never served as files).`;
}

function aligned(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.min(60, Math.max(0, ...rows.map(([left]) => left.length)));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}
