import { describe, expect, it } from 'vitest';
import { walkJson } from './json-walk.js';

describe('walkJson', () => {
  it('visits strings, keys and containers with their depth, and the path only when asked', () => {
    const seen: string[] = [];
    walkJson({ a: ['x', { b: 'y' }] }, {
      text: (value, at) => void seen.push(`text ${value} ${at.depth} ${at.path()}`),
      key: (key, at) => void seen.push(`key ${key} ${at.depth}`),
      container: (value, at) => void seen.push(`${Array.isArray(value) ? 'array' : 'object'} ${at.depth} ${at.path()}`),
    });
    expect(seen.sort()).toEqual(['array 1 /a', 'key a 0', 'key b 2', 'object 0 ', 'object 2 /a/1', 'text x 2 /a/0', 'text y 3 /a/1/b'].sort());
  });

  it('stops at the first visit that answers', () => {
    expect(walkJson(['a', 'b', 'c'], { text: (value) => (value === 'b' ? value.toUpperCase() : undefined) })).toBe('B');
    expect(walkJson({ n: 1 }, { text: () => 'never' })).toBeUndefined();
  });

  it('walks nesting far deeper than the call stack allows', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(walkJson(deep, { text: (value, at) => `${value} at ${at.depth}` })).toBe('bottom at 200000');
  });
});
