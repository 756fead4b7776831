import { describe, expect, it } from 'vitest';
import { inexactNumberFields } from './exact-numbers.js';

describe('numbers that would change on storage', () => {
  it('finds none in ordinary bodies', () => {
    expect(inexactNumberFields('{"a":1,"b":-2.5,"c":0.1,"d":1.10,"e":[1e3,2E-7],"f":"1e400","g":{"h":12345678901234}}')).toEqual([]);
    expect(inexactNumberFields('{"max":9007199254740991,"min":-9007199254740991,"pow":9007199254740994,"small":5e-324}')).toEqual([]);
  });

  it('names the top-level field of a number a double cannot hold as written', () => {
    expect(inexactNumberFields('{"ok":1,"huge":1e400}')).toEqual(['huge']);
    expect(inexactNumberFields('{"id":9007199254740993}')).toEqual(['id']);
    expect(inexactNumberFields('{"nested":{"deep":[1, 0.1000000000000000055511151231257827]}, "x": 2}')).toEqual(['nested']);
    expect(inexactNumberFields('{"neg":-1e400,"tiny":1e-400}')).toEqual(['neg', 'tiny']);
  });

  it('is not misled by strings that look like numbers, keys or punctuation', () => {
    expect(inexactNumberFields('{"a\\"b:":"9007199254740993", "c": "{[,:]}", "d": 9007199254740993}')).toEqual(['d']);
  });
});
