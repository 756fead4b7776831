import { ServiceError } from '../errors.js';
import { formatSize } from '../format-size.js';

/** The two rules files at the root of a deploy's files (docs/hosting.md#redirects-and-headers). */
export type SiteRulesFile = '_redirects' | '_headers';

export const siteRulesFiles: readonly SiteRulesFile[] = ['_redirects', '_headers'];

/**
 * The limits of the rules files (docs/hosting.md#limits-and-errors): `_redirects` 2,000
 * rules, 1,000 characters a line and 64 KiB; `_headers` 100 blocks and 2,000 characters a
 * line, and 64 KiB too, so that a block's header lines are bounded as well.
 */
export const siteRulesLimits = {
  _redirects: { entries: 2_000, lineCharacters: 1_000, bytes: 64 * 1024 },
  _headers: { entries: 100, lineCharacters: 2_000, bytes: 64 * 1024 },
} as const satisfies Record<SiteRulesFile, { entries: number; lineCharacters: number; bytes: number }>;

/**
 * A line that does not parse, or a limit passed: `validation_failed` with the message
 * `_redirects:LINE: why`, the one way every deploy (and `svc deploy --dry-run`) reports it.
 */
export function siteRulesError(file: SiteRulesFile, line: number, why: string): ServiceError {
  return new ServiceError('validation_failed', `${file}:${line}: ${why}`, { errors: { [file]: `line ${line}: ${why}` } });
}

/** One line of a rules file: its number (from 1) and its text, without the line break. */
export interface RuleLine {
  readonly number: number;
  readonly text: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The lines of a rules file: at most its size limit (the line where it is passed is named;
 * `bytes` may be only the first limit + 1 bytes of a larger file), UTF-8 (a byte order mark
 * is dropped), each line within its length limit, `\r\n` or `\n` line ends.
 */
export function ruleLines(file: SiteRulesFile, bytes: Uint8Array, size: number = bytes.length): RuleLine[] {
  const limits = siteRulesLimits[file];
  if (size > limits.bytes) {
    let line = 1;
    for (let index = 0; index < Math.min(bytes.length, limits.bytes); index += 1) if (bytes[index] === 0x0a) line += 1;
    throw siteRulesError(file, line, `the file is ${formatSize(size)}, past its limit of ${formatSize(limits.bytes)} here`);
  }
  const lines: RuleLine[] = [];
  let start = 0;
  for (let number = 1; start <= bytes.length; number += 1) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    let text: string;
    try {
      text = utf8.decode(bytes.subarray(start, end));
    } catch {
      throw siteRulesError(file, number, 'is not UTF-8 text');
    }
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.length > limits.lineCharacters) {
      throw siteRulesError(file, number, `is ${text.length} characters long; a line of ${file} is at most ${limits.lineCharacters.toLocaleString('en-US')}`);
    }
    lines.push({ number, text });
    start = end + 1;
  }
  return lines;
}

/** The first control character of `text` (tab included), or null. */
export function controlCharacter(text: string): string | null {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const found = /[\u0000-\u001f\u007f]/.exec(text);
  return found === null ? null : found[0];
}

/** `U+0009` for a character: how a line names one that cannot be shown. */
export function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
