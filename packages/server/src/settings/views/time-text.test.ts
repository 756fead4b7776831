import { describe, expect, it } from 'vitest';
import { exactTime, relativeTime } from './time-text.js';

const now = Date.UTC(2026, 10, 26, 16, 0, 0);
const minute = 60_000;

describe('times on the settings pages', () => {
  it('reads the past relative to now, in the largest unit that fits', () => {
    expect(relativeTime(now - 10_000, now)).toBe('just now');
    expect(relativeTime(now - 50_000, now)).toBe('1 min ago');
    expect(relativeTime(now - 5 * minute, now)).toBe('5 min ago');
    expect(relativeTime(now - 59 * minute, now)).toBe('59 min ago');
    expect(relativeTime(now - 60 * minute, now)).toBe('1 h ago');
    expect(relativeTime(now - 23 * 60 * minute, now)).toBe('23 h ago');
    expect(relativeTime(now - 24 * 60 * minute, now)).toBe('1 day ago');
    expect(relativeTime(now - 3 * 24 * 60 * minute, now)).toBe('3 days ago');
  });

  it('reads the future as "in …" (a delivery\'s next attempt)', () => {
    expect(relativeTime(now + 15 * minute, now)).toBe('in 15 min');
    expect(relativeTime(now + 4 * 60 * minute, now)).toBe('in 4 h');
    expect(relativeTime(now + 5_000, now)).toBe('in a moment');
  });

  it('gives a date, not a count, beyond a month', () => {
    expect(relativeTime(Date.UTC(2026, 2, 12, 9, 30), now)).toBe('12 Mar 2026');
  });

  it('gives the exact time in UTC for the tooltip', () => {
    expect(exactTime(Date.UTC(2026, 10, 26, 16, 58, 51, 354))).toBe('2026-11-26 16:58:51 UTC');
  });
});
