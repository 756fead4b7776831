import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonDocument } from './json-document.js';

/** What JSON.parse makes of `text`, or `rejected`; a leading byte order mark is accepted on purpose. */
function parsedByJson(text: string): { value: unknown } | 'rejected' {
  try {
    return { value: JSON.parse(text.replace(/^\uFEFF/, '')) };
  } catch {
    return 'rejected';
  }
}

const jsonPieces = fc.constantFrom(
  ...['{', '}', '[', ']', ',', ':', '"', '\\', 'u', 'a', '0', '1', '-', '.', 'e', '+', ' ', '\n', '\r', '\t', '/', '*', "'"],
  ...['true', 'null', 'false', 'E', 'x', '\u00a0', '\u2028', '\v', '\f', '\u0001', '\uFEFF'],
);

describe('parseJsonDocument', () => {
  it('accepts exactly the texts JSON.parse accepts, with the same values', () => {
    const agrees = (text: string): void => {
      const expected = parsedByJson(text);
      const parsed = parseJsonDocument(text);
      if (expected === 'rejected') expect(parsed.ok, JSON.stringify(text)).toBe(false);
      else expect(parsed.ok ? parsed.document.value : parsed.error, JSON.stringify(text)).toStrictEqual(expected.value);
    };
    fc.assert(fc.property(fc.array(jsonPieces, { maxLength: 24 }), (pieces) => agrees(pieces.join(''))), { numRuns: 5000 });
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.string({ maxLength: 3 }), (json, at, inserted) => {
        const cut = at % (json.length + 1);
        agrees(json);
        agrees(json.slice(0, cut) + inserted + json.slice(cut));
        agrees(json.slice(0, cut) + json.slice(cut + 1));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the last value of a repeated key, as JSON.parse does, and reports the repeat', () => {
    const parsed = parseJsonDocument('{"a": 1, "a": 2}');
    expect(parsed.ok && parsed.document.value).toEqual({ a: 2 });
    expect(parsed.ok && parsed.document.duplicateKeys).toEqual([
      { pointer: '/a', message: 'duplicate key "a": first defined at line 1, column 2', line: 1, column: 10 },
    ]);
  });

  it('gives the position of values and keys by JSON Pointer, and of the nearest ancestor otherwise', () => {
    const parsed = parseJsonDocument('{\n  "list": [10, {"k~/": true}]\n}');
    if (!parsed.ok) throw new Error('expected valid JSON');
    const { positionOf } = parsed.document;
    expect(positionOf('')).toEqual({ line: 1, column: 1 });
    expect(positionOf('/list')).toEqual({ line: 2, column: 11 });
    expect(positionOf('/list', 'key')).toEqual({ line: 2, column: 3 });
    expect(positionOf('/list/1/k~0~1', 'key')).toEqual({ line: 2, column: 17 });
    expect(positionOf('/list/1/k~0~1')).toEqual({ line: 2, column: 24 });
    expect(positionOf('/list/0', 'key')).toEqual({ line: 2, column: 12 });
    expect(positionOf('/list/7/missing')).toEqual({ line: 2, column: 11 });
  });
});
