import { describe, expect, it } from 'vitest';
import { quantiles } from './quantiles.js';

describe('quantiles', () => {
  it('picks the nearest rank below from values in any order, the largest at 1', () => {
    const at = quantiles([...Array.from({ length: 100 }, (_, index) => 100 - index)]);
    expect([at(0), at(0.5), at(0.9), at(0.99), at(1)]).toEqual([1, 51, 91, 100, 100]);
  });

  it('leaves the values it was given in their order', () => {
    const values = [3, 1, 2];
    expect(quantiles(values)(0.5)).toBe(2);
    expect(values).toEqual([3, 1, 2]);
  });

  it('answers 0 when there are no values', () => {
    expect(quantiles([])(0.99)).toBe(0);
  });
});
