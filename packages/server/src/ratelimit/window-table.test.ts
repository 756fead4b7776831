import { describe, expect, it } from 'vitest';
import { WindowTable } from './window-table.js';

const minute = 60_000;

describe('the windows of a rate limit in memory', () => {
  it('counts within a window and starts a new one when it ends', () => {
    const table = new WindowTable(10);
    expect(table.add('a', minute, 0)).toEqual({ count: 1, expiresAt: minute });
    expect(table.add('a', minute, 1_000)).toEqual({ count: 2, expiresAt: minute });
    expect(table.get('a', 2_000)).toEqual({ count: 2, expiresAt: minute });
    expect(table.get('a', minute)).toBeUndefined();
    expect(table.add('a', minute, minute)).toEqual({ count: 1, expiresAt: 2 * minute });
  });

  it('holds at most its capacity under a flood of new keys, dropping the windows counted least recently', () => {
    let dropped = 0;
    const table = new WindowTable(100, () => (dropped += 1));
    for (let i = 0; i < 10_000; i++) table.add(`flood-${i}`, minute, i);
    expect(table.size).toBe(100);
    expect(dropped).toBe(9_900);
    expect(table.get('flood-9899', 10_000)).toBeUndefined();
    expect(table.get('flood-9900', 10_000)).toEqual({ count: 1, expiresAt: minute + 9_900 });
    // A newcomer after the flood is counted as itself, from one.
    expect(table.add('newcomer', minute, 10_001)).toEqual({ count: 1, expiresAt: minute + 10_001 });
    expect(table.add('newcomer', minute, 10_002).count).toBe(2);
    expect(table.size).toBe(100);
  });

  it('keeps the windows of clients that keep coming, dropping those left alone longest', () => {
    const table = new WindowTable(3);
    table.add('a', minute, 0);
    table.add('b', minute, 1);
    table.add('c', minute, 2);
    table.add('a', minute, 3); // counted again: now the most recent
    table.add('d', minute, 4); // over capacity: b, left alone longest, goes
    expect(table.get('a', 5)?.count).toBe(2);
    expect(table.get('b', 5)).toBeUndefined();
    expect(table.get('c', 5)?.count).toBe(1);
    expect(table.get('d', 5)?.count).toBe(1);
  });

  it('gives back the memory of ended windows as new ones start', () => {
    const table = new WindowTable(1_000);
    for (let i = 0; i < 500; i++) table.add(`old-${i}`, minute, 0);
    for (let i = 0; i < 250; i++) table.add(`new-${i}`, minute, minute + i);
    expect(table.size).toBe(250);
  });

  it('restores saved windows that are still open, within its capacity', () => {
    const table = new WindowTable(2);
    table.restore('ended', 5, 1_000, 1_000);
    table.restore('a', 3, 5_000, 1_000);
    table.restore('b', 4, 6_000, 1_000);
    table.restore('c', 1, 7_000, 1_000);
    expect(table.get('ended', 1_000)).toBeUndefined();
    expect(table.get('a', 1_000)).toBeUndefined();
    expect(table.get('b', 1_000)).toEqual({ count: 4, expiresAt: 6_000 });
    expect(table.add('c', minute, 2_000)).toEqual({ count: 2, expiresAt: 7_000 });
  });
});
