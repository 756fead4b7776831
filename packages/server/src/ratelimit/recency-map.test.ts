import { describe, expect, it } from 'vitest';
import { RecencyMap } from './recency-map.js';

interface Entry {
  used: boolean;
  readonly endsAt: number;
}

const entry = (endsAt = Number.POSITIVE_INFINITY): Entry => ({ used: false, endsAt });
const bounded = (capacity: number, dropped: string[] = []) => {
  const map: RecencyMap<Entry> = new RecencyMap(capacity, (value, now) => value.endsAt <= now, () => void dropped.push('dropped'));
  return map;
};
const keys = (map: RecencyMap<Entry>, names: string[]) => names.filter((name) => map.peek(name) !== undefined);

describe('a map that drops the least recently used entry', () => {
  it('drops the entry put first when none was used again', () => {
    const dropped: string[] = [];
    const map = bounded(3, dropped);
    for (const name of ['a', 'b', 'c', 'd']) map.put(name, entry(), 0);
    expect(keys(map, ['a', 'b', 'c', 'd'])).toEqual(['b', 'c', 'd']);
    expect(dropped).toHaveLength(1);
  });

  it('gives a used entry a second chance, and drops it once it goes unused for a whole pass', () => {
    const map = bounded(3);
    for (const name of ['a', 'b', 'c']) map.put(name, entry(), 0);
    map.use('a');
    map.put('d', entry(), 0); // a was used: moved back; b goes
    expect(keys(map, ['a', 'b', 'c', 'd'])).toEqual(['a', 'c', 'd']);
    map.put('e', entry(), 0); // c goes
    map.put('f', entry(), 0); // d goes
    map.put('g', entry(), 0); // a, unused since its second chance, goes
    expect(keys(map, ['a', 'e', 'f', 'g'])).toEqual(['e', 'f', 'g']);
  });

  it('does not mark an entry it only peeks at', () => {
    const map = bounded(2);
    map.put('a', entry(), 0);
    map.put('b', entry(), 0);
    map.peek('a');
    map.put('c', entry(), 0);
    expect(keys(map, ['a', 'b', 'c'])).toEqual(['b', 'c']);
  });

  it('moves at most eight used entries back for one put, so that no put walks the whole map', () => {
    const map = bounded(100);
    for (let i = 0; i < 100; i++) map.put(`k${i}`, entry(), 0);
    for (let i = 0; i < 100; i++) map.use(`k${i}`);
    map.put('new', entry(), 0);
    expect(map.size).toBe(100);
    // k0 to k7 were moved back; k8 went though used.
    expect(keys(map, ['k0', 'k7', 'k8', 'k9', 'new'])).toEqual(['k0', 'k7', 'k9', 'new']);
  });

  it('drops ended entries from the front without counting them as dropped', () => {
    const dropped: string[] = [];
    const map = bounded(10, dropped);
    for (let i = 0; i < 6; i++) map.put(`old${i}`, entry(5), 0);
    map.put('new1', entry(), 10);
    map.put('new2', entry(), 10);
    expect(map.size).toBe(4);
    expect(dropped).toEqual([]);
  });
});
