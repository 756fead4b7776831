import { describe, expect, it } from 'vitest';
import { durationText } from './duration-text.js';

describe('durationText', () => {
  it('writes the largest unit that divides the duration', () => {
    expect(durationText(15 * 60_000)).toBe('15 min');
    expect(durationText(90_000)).toBe('90 s');
    expect(durationText(10_000)).toBe('10 s');
    expect(durationText(200)).toBe('200 ms');
    expect(durationText(0)).toBe('0 s');
  });
});
