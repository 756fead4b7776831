import { eventFamilies, eventTypes, isValidEventPattern } from '@svc/protocol';

export type EventPatternsCheck = { readonly ok: true; readonly patterns: string[] } | { readonly ok: false; readonly problem: string };

/**
 * A webhook's event patterns: `*`, a family (`form.*`, `deploy.*`, `request.*`) or an exact
 * type from the catalog. Entries may also be comma-separated lists; blanks are ignored and
 * duplicates folded, keeping the order given (so there are at most 13).
 */
export function checkEventPatterns(input: unknown): EventPatternsCheck {
  const entries = Array.isArray(input) ? (input as unknown[]) : typeof input === 'string' ? [input] : null;
  if (entries === null || entries.some((entry) => typeof entry !== 'string')) return { ok: false, problem: 'must be a list of event patterns' };
  const patterns = [...new Set((entries as string[]).flatMap((entry) => entry.split(',')).map((entry) => entry.trim()).filter((entry) => entry !== ''))];
  if (patterns.length === 0) return { ok: false, problem: `needs at least one pattern: ${knownPatterns()}` };
  const unknown = patterns.filter((pattern) => !isValidEventPattern(pattern));
  if (unknown.length > 0) return { ok: false, problem: `${unknown.map((pattern) => `"${pattern}"`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not known; use ${knownPatterns()}` };
  return { ok: true, patterns };
}

function knownPatterns(): string {
  return ['*', ...eventFamilies.map((family) => `${family}.*`), ...eventTypes].join(', ');
}
