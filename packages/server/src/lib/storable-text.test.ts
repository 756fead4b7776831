import { describe, expect, it } from 'vitest';
import { findUnstorable, shownText, unstorableKind } from './storable-text.js';

describe('text a store cannot hold exactly', () => {
  it('finds NUL and unpaired surrogates, and lets whole surrogate pairs through', () => {
    expect(unstorableKind('plain text, ünïcode, 😀')).toBeNull();
    expect(unstorableKind('a\u0000b')).toBe('NUL');
    expect(unstorableKind('half \ud83d a pair')).toBe('surrogate');
    expect(unstorableKind('\ude00 the other half')).toBe('surrogate');
  });

  it('looks into lists and objects, keys included', () => {
    expect(findUnstorable({ a: ['x', { b: 'y' }], c: 1, d: null })).toBeNull();
    expect(findUnstorable({ a: ['x', { b: 'y\u0000' }] })).toBe('NUL');
    expect(findUnstorable([{ ['k\ud800']: 'v' }])).toBe('surrogate');
  });

  it('shows what it refused with replacement characters', () => {
    expect(shownText('a\u0000b\ud800c😀')).toBe('a\ufffdb\ufffdc😀');
  });
});
