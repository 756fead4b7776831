/**
 * Control characters (C0, DEL, C1) and the bidirectional overrides that can make text read
 * differently from what it is: what the CLI shows escaped on a terminal (docs/cli.md) and
 * the server escapes in its log lines, so text from others can neither run a terminal
 * escape sequence nor fake the text around it.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const named: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

/** The escape one unsafe character is shown as: `\n`, `\e`, or `\u{…}`. */
export function escapedCharacter(character: string): string {
  return named[character] ?? `\\u{${character.codePointAt(0)!.toString(16)}}`;
}

/** Text with every such character (line breaks and ESC too) written as its escape. */
export function escapeControlCharacters(text: string): string {
  return text.replace(unsafe, escapedCharacter);
}
