import { describe, expect, it } from 'vitest';
import { dataForTerminal, printable, terminalSafe } from './printable.js';

describe('text from others shown on a terminal', () => {
  it('shows escape sequences escaped, so they cannot clear the screen or fake text', () => {
    expect(printable('\u001b[2J\u001b[HYou won')).toBe('\\e[2J\\e[HYou won');
    expect(printable('a\u009b31mb')).toBe('a\\u{9b}31mb');
    expect(printable('bell\u0007 nul\u0000 del\u007f')).toBe('bell\\u{7} nul\\u{0} del\\u{7f}');
  });

  it('keeps line breaks and tabs visible instead of breaking the table', () => {
    expect(printable('line one\r\nline two\tend')).toBe('line one\\r\\nline two\\tend');
  });

  it('shows bidirectional overrides that would make text read differently', () => {
    expect(printable('invoice\u202Efdp.exe')).toBe('invoice\\u{202e}fdp.exe');
  });

  it('leaves ordinary text, accents and emoji alone', () => {
    expect(printable('Zoë — 東京 🎉 "quoted"')).toBe('Zoë — 東京 🎉 "quoted"');
  });
});

describe('every human output, checked where it is written', () => {
  it('keeps line breaks, tabs and colours, and escapes every other control sequence', () => {
    expect(terminalSafe('\u001b[1mName\u001b[22m\tvalue\nnext')).toBe('\u001b[1mName\u001b[22m\tvalue\nnext');
    expect(terminalSafe('url: https://x/\u001b]52;c;ZXZpbA==\u0007')).toBe('url: https://x/\\e]52;c;ZXZpbA==\\u{7}');
    expect(terminalSafe('\u001b[2Jgone\roverwritten')).toBe('\\e[2Jgone\\roverwritten');
  });
});

describe('an export shown on a terminal', () => {
  it('keeps its line ends and tabs, and escapes everything else, colour sequences and lone carriage returns included', () => {
    expect(dataForTerminal('id,name\r\n1,"two\nlines\ttab"\r\n')).toBe('id,name\r\n1,"two\nlines\ttab"\r\n');
    expect(dataForTerminal('1,\u001b[31mred\u001b]0;title\u0007\rfake\u202e\r\n')).toBe('1,\\e[31mred\\e]0;title\\u{7}\\rfake\\u{202e}\r\n');
  });
});
