import { describe, expect, it } from 'vitest';
import { KeyBudget } from './key-budget.js';

describe('the key budget of a rate limiter', () => {
  it('counts the keys created during the last window and forgets them after it', () => {
    const budget = new KeyBudget(60);
    const start = 1_000_000;
    for (let i = 0; i < 5; i++) budget.created(start + i * 10_000);
    expect(budget.live(start + 40_000)).toBe(5);
    expect(budget.live(start + 65_000)).toBe(4);
    expect(budget.live(start + 200_000)).toBe(0);
  });

  it('keeps long windows in a bounded number of buckets', () => {
    const budget = new KeyBudget(86_400);
    budget.created(0);
    budget.created(86_000_000);
    expect(budget.live(86_000_000)).toBe(2);
    expect(budget.live(86_400_000 + 86_000_000 + 1_440_000)).toBe(0);
  });
});
