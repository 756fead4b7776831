import { describe, expect, it } from 'vitest';
import { formatDurationSeconds, parseBoolean, parseCount, parseDuration, parseDurationList, parseSize } from './config-values.js';
import { formatRateLimit, parseRateLimit } from './rate-limit-text.js';

describe('configuration values', () => {
  it('parses durations in every unit, a bare number being seconds', () => {
    expect([parseDuration('250ms'), parseDuration('3s'), parseDuration('15m'), parseDuration('1h'), parseDuration('2d'), parseDuration('10')]).toEqual([
      250, 3_000, 900_000, 3_600_000, 172_800_000, 10_000,
    ]);
    expect(parseDurationList('1s, 2s,4s')).toEqual([1_000, 2_000, 4_000]);
    expect(() => parseDuration('soon')).toThrow(/not a duration/);
    expect(() => parseDurationList('1s,,2s')).toThrow();
  });
  it('writes seconds back in the largest unit that divides them, as parseDuration reads them', () => {
    expect([7_776_000, 43_200, 2_700, 90].map(formatDurationSeconds)).toEqual(['90d', '12h', '45m', '90s']);
    for (const text of ['90d', '12h', '45m', '30s']) expect(formatDurationSeconds(parseDuration(text) / 1000)).toBe(text);
  });
  it('parses sizes in decimal and binary units', () => {
    expect([parseSize('1048576'), parseSize('1MiB'), parseSize('1mb'), parseSize('512KiB'), parseSize('10 MiB')]).toEqual([1_048_576, 1_048_576, 1_000_000, 524_288, 10_485_760]);
    expect(() => parseSize('0')).toThrow();
    expect(() => parseSize('big')).toThrow(/not a size/);
  });
  it('parses counts within bounds and booleans', () => {
    expect(parseCount('10', 0, 10)).toBe(10);
    expect(() => parseCount('11', 0, 10)).toThrow(/from 0 to 10/);
    expect(() => parseCount('1.5', 0, 10)).toThrow();
    expect(['1', 'true', 'YES', 'on'].map(parseBoolean)).toEqual([true, true, true, true]);
    expect(['0', 'false', 'no', 'off', ''].map(parseBoolean)).toEqual([false, false, false, false, false]);
    expect(() => parseBoolean('maybe')).toThrow();
  });
});

describe('rate limits as people write them', () => {
  it('parses requests/window with units and refuses what is out of bounds', () => {
    expect(parseRateLimit('30/5m')).toEqual({ max: 30, windowSeconds: 300 });
    expect(parseRateLimit('100/60')).toEqual({ max: 100, windowSeconds: 60 });
    expect(parseRateLimit('5/1h')).toEqual({ max: 5, windowSeconds: 3600 });
    expect([formatRateLimit({ max: 30, windowSeconds: 300 }), formatRateLimit({ max: 5, windowSeconds: 7_200 }), formatRateLimit({ max: 10, windowSeconds: 90 })]).toEqual(['30/5m', '5/2h', '10/90s']);
    for (const text of ['30/5m', '1/1d', '7/45s']) expect(formatRateLimit(parseRateLimit(text))).toBe(text);
    for (const bad of ['0/5m', '30/0s', '30/2d', 'thirty/5m', '30']) expect(() => parseRateLimit(bad), bad).toThrow();
  });
});
