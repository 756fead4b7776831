import type { printParseErrorCode } from 'jsonc-parser';

/** jsonc-parser's error codes by name (its enum is a `const enum`, out of reach under verbatimModuleSyntax). */
export type SyntaxErrorName = ReturnType<typeof printParseErrorCode>;

/** What a JSON syntax error is, in words, and the offset it is best reported at. */
export interface SyntaxProblem {
  message: string;
  offset: number;
}

/** Where the parser was: inside an object or array, after the whole value, or before it. */
export type Context = 'object' | 'array' | 'after-value' | 'before-value';

/**
 * Describes one error of jsonc-parser for a person. `offset` and `length` are those of the
 * token where the parser stopped; the offset is moved to the exact character when that is
 * more useful (the trailing comma, the bad escape inside a string).
 */
export function describeSyntaxError(text: string, code: SyntaxErrorName, offset: number, length: number, context: Context): SyntaxProblem {
  const atEnd = offset >= text.length;
  const token = text.slice(offset, offset + length);
  const problem = (message: string, at = offset): SyntaxProblem => ({ message, offset: at });
  // jsonc-parser reports a missing closing brace or bracket only after the value has ended;
  // that, and a comment, keep their own message there.
  const aboutTheValue = code === 'CloseBraceExpected' || code === 'CloseBracketExpected' || code === 'InvalidCommentToken';
  if (context === 'after-value' && !aboutTheValue) return problem('unexpected content after the end of the JSON value');
  switch (code) {
    case 'InvalidSymbol':
      return problem(describeUnexpected(token));
    case 'InvalidNumberFormat':
      return problem(`invalid number ${quote(token)}`);
    case 'PropertyNameExpected':
    case 'ValueExpected': {
      if (atEnd) return problem('unexpected end of file: expected a value');
      const comma = trailingComma(text, offset);
      if (comma !== undefined) return problem('trailing commas are not allowed in JSON', comma);
      return problem(code === 'PropertyNameExpected' ? 'expected a property name in double quotes' : 'expected a value');
    }
    case 'ColonExpected':
      return problem(atEnd ? 'unexpected end of file: expected a colon' : 'expected a colon after the property name');
    case 'CommaExpected':
      return problem(context === 'array' ? 'expected a comma or closing bracket' : 'expected a comma or closing brace');
    case 'CloseBraceExpected':
      return problem(atEnd ? 'unexpected end of file: missing a closing brace' : 'expected a comma or closing brace');
    case 'CloseBracketExpected':
      return problem(atEnd ? 'unexpected end of file: missing a closing bracket' : 'expected a comma or closing bracket');
    case 'EndOfFileExpected':
      return problem('unexpected content after the end of the JSON value');
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return problem('comments are not allowed in JSON');
    case 'UnexpectedEndOfString':
      return problem('unterminated string: a string must end with a double quote on the same line');
    case 'UnexpectedEndOfNumber':
      return problem(`incomplete number ${quote(token)}`);
    case 'InvalidUnicode':
      return problem('invalid unicode escape: \\u must be followed by four hexadecimal digits', firstBadEscape(text, offset, length));
    case 'InvalidEscapeCharacter': {
      const at = firstBadEscape(text, offset, length);
      return problem(`invalid escape sequence ${quote(text.slice(at, at + 2))}`, at);
    }
    case 'InvalidCharacter':
      return problem('control characters must be escaped in strings, for example as \\n or \\t', firstControlCharacter(text, offset, length));
    case '<unknown ParseErrorCode>':
      return problem('invalid JSON');
  }
}

function describeUnexpected(token: string): string {
  if (token.startsWith("'")) return 'strings must be in double quotes, not single quotes';
  if (/^[A-Za-z_$]/.test(token)) return `unexpected ${quote(token)}: strings and property names must be in double quotes`;
  const first = token.codePointAt(0) ?? 0;
  const shown = first > 0x20 && first < 0x7f ? quote(String.fromCodePoint(first)) : `U+${first.toString(16).toUpperCase().padStart(4, '0')}`;
  return `unexpected character ${shown}`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/** The offset of the comma before a closing `}` or `]` at `offset`, if that is what is there. */
function trailingComma(text: string, offset: number): number | undefined {
  const close = text[offset];
  if (close !== '}' && close !== ']') return undefined;
  let at = offset - 1;
  while (at >= 0 && ' \t\r\n'.includes(text[at] ?? '')) at--;
  return text[at] === ',' ? at : undefined;
}

function firstBadEscape(text: string, offset: number, length: number): number {
  for (let at = offset + 1; at < offset + length; at++) {
    if (text[at] !== '\\') continue;
    const next = text[at + 1] ?? '';
    if (next === 'u' ? !/^[0-9A-Fa-f]{4}$/.test(text.slice(at + 2, at + 6)) : !'"\\/bfnrt'.includes(next) || next === '') return at;
    at++;
  }
  return offset;
}

function firstControlCharacter(text: string, offset: number, length: number): number {
  for (let at = offset + 1; at < offset + length; at++) {
    if (text.charCodeAt(at) < 0x20) return at;
  }
  return offset;
}
