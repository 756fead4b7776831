import { describe, expect, it } from 'vitest';
import { cellText, csvField, csvRecord } from './csv.js';

describe('RFC 4180 CSV', () => {
  it('leaves plain fields alone and ends records with CRLF', () => {
    expect(csvRecord(['a', 'b c', '', 'x-1'])).toBe('a,b c,,x-1\r\n');
  });

  it('quotes fields holding a comma, a double quote, CR or LF, doubling the quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('carriage\rreturn')).toBe('"carriage\rreturn"');
    expect(csvField('"')).toBe('""""');
    expect(csvRecord(['1', 'Grace, "Amazing"', 'two\r\nlines'])).toBe('1,"Grace, ""Amazing""","two\r\nlines"\r\n');
  });

  it('keeps leading and trailing spaces and other characters as they are', () => {
    expect(csvField('  padded  ')).toBe('  padded  ');
    expect(csvField("it's; fine\t")).toBe("it's; fine\t");
    expect(csvField('=1+1')).toBe('=1+1');
  });

  it('writes strings as they are and other JSON values as JSON', () => {
    expect([cellText('text'), cellText(42), cellText(true), cellText(null), cellText(undefined)]).toEqual(['text', '42', 'true', '', '']);
    expect(cellText(['a', 'b'])).toBe('["a","b"]');
    expect(cellText({ nested: { x: 1 } })).toBe('{"nested":{"x":1}}');
  });
});
