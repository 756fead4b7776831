import { describe, expect, it } from 'vitest';
import { formatSignatureHeader, parseSignatureHeader } from './header.js';
import { syncOutcome } from './test-support/outcome.js';

const A = 'a'.repeat(64);
const B = '0123456789abcdef'.repeat(4);

describe('parseSignatureHeader', () => {
  it('reads t and every v1, in order', () => {
    expect(parseSignatureHeader(`t=1700000000,v1=${A},v1=${B}`)).toEqual({ timestamp: 1700000000, signatures: [A, B] });
  });

  it('tolerates optional whitespace around entries, keys and values', () => {
    expect(parseSignatureHeader(` t = 1700000000 ,\tv1=${A} , v1 =${B}\t`)).toEqual({
      timestamp: 1700000000,
      signatures: [A, B],
    });
  });

  it('ignores empty entries and unknown keys', () => {
    expect(parseSignatureHeader(`,t=5,,v2=whatever,v1=${A},x=,`)).toEqual({ timestamp: 5, signatures: [A] });
  });

  it('accepts t=0', () => {
    expect(parseSignatureHeader(`t=0,v1=${A}`).timestamp).toBe(0);
  });

  it('is the inverse of formatSignatureHeader', () => {
    const header = formatSignatureHeader(1700000000, [A, B]);
    expect(header).toBe(`t=1700000000,v1=${A},v1=${B}`);
    expect(parseSignatureHeader(header)).toEqual({ timestamp: 1700000000, signatures: [A, B] });
  });

  it.each([null, undefined, '', ' \t '])('throws missing_header for %j', (header) => {
    expect(syncOutcome(() => parseSignatureHeader(header))).toBe('missing_header');
  });

  it.each([
    ['garbage', 'garbage'],
    ['only commas', ',,,'],
    ['no t', `v1=${A}`],
    ['no v1', 't=1700000000'],
    ['t twice', `t=1,t=2,v1=${A}`],
    ['empty t', `t=,v1=${A}`],
    ['non-numeric t', `t=abc,v1=${A}`],
    ['fractional t', `t=1.5,v1=${A}`],
    ['negative t', `t=-1,v1=${A}`],
    ['signed t', `t=+1,v1=${A}`],
    ['t with a leading zero', `t=01700000000,v1=${A}`],
    ['t in exponent form', `t=1e9,v1=${A}`],
    ['t beyond a safe integer', `t=${'9'.repeat(20)},v1=${A}`],
    ['empty v1', 't=1,v1='],
    ['v1 too short', `t=1,v1=${A.slice(1)}`],
    ['v1 too long', `t=1,v1=${A}0`],
    ['v1 not hex', `t=1,v1=${'g'.repeat(64)}`],
    ['v1 in uppercase hex', `t=1,v1=${B.toUpperCase()}`],
    ['v1 base64', 't=1,v1=q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA='],
    ['one good and one bad v1', `t=1,v1=${A},v1=nope`],
    ['an entry without =', `t=1,v1=${A},v1`],
    ['an entry with an empty key', `t=1,v1=${A},=x`],
    ['keys are case-sensitive', `T=1,V1=${A}`],
  ])('throws malformed_header for %s', (_name, header) => {
    expect(syncOutcome(() => parseSignatureHeader(header))).toBe('malformed_header');
  });

  it('reads a list of header lines as one comma-separated list', () => {
    expect(parseSignatureHeader([`t=1,v1=${A}`, ` v1=${B}`])).toEqual({ timestamp: 1, signatures: [A, B] });
    expect(syncOutcome(() => parseSignatureHeader([]))).toBe('missing_header');
  });

  it('throws malformed_header for a value that is neither a string nor a list of strings', () => {
    expect(syncOutcome(() => parseSignatureHeader(1 as unknown as string))).toBe('malformed_header');
    expect(syncOutcome(() => parseSignatureHeader([`t=1,v1=${A}`, 2] as unknown as string[]))).toBe('malformed_header');
  });
});
