import { escapeControlCharacters } from '@svc/protocol';

/**
 * Text from others (submitted fields, file names, receivers' answers) made safe for a
 * terminal: control characters (C0, DEL, C1) and the bidirectional overrides that can make
 * text read differently from what it is are shown escaped, so an anonymous submitter can
 * neither run a terminal escape sequence (clear the screen, move the cursor, set the
 * title) nor fake the text around it (docs/cli.md).
 */
export const printable = escapeControlCharacters;

// Our own colours: Select Graphic Rendition sequences only (`ESC [ … m`), which cannot move
// the cursor, clear anything, or reach the clipboard.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const ownColourOrUnsafe = /\u001b\[[0-9;]*m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A whole human output (tables, notes, results), checked once where it is written: line
 * breaks, tabs and colour sequences stay; every other control character is shown escaped,
 * whichever part of the text it came from. Cells of tables are escaped before already
 * (`printable`), so data never breaks a table's lines.
 */
export function terminalSafe(text: string): string {
  return text.replace(ownColourOrUnsafe, (match) => (match.length > 1 ? match : printable(match)));
}

// Line ends (`\r\n` as CSV writes them, or `\n`), tabs, and every other control character.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const lineEndOrUnsafe = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Data written out as it is (an export) when it goes to a terminal: line ends and tabs stay,
 * so records still read as lines; every other control character is shown escaped, colour
 * sequences and lone carriage returns too, since none of them is ours. A file or a pipe
 * gets the exact data instead.
 */
export function dataForTerminal(text: string): string {
  return text.replace(lineEndOrUnsafe, (match) => (match === '\r\n' ? match : printable(match)));
}
