import { describe, expect, it } from 'vitest';
import { LogRing } from './log-ring.js';

describe('LogRing', () => {
  it('keeps everything under the limit', () => {
    const ring = new LogRing(100);
    ring.append('one\n');
    ring.append('two\n');
    expect(ring.text()).toBe('one\ntwo\n');
  });

  it('keeps only the last bytes once past the limit', () => {
    const ring = new LogRing(10);
    ring.append('abcdefgh');
    ring.append('ijklmnop');
    expect(ring.text()).toBe('ghijklmnop');
  });

  it('keeps the end of a single chunk larger than the limit', () => {
    const ring = new LogRing(4);
    ring.append('0123456789');
    expect(ring.text()).toBe('6789');
  });

  it('never starts with half a character', () => {
    const ring = new LogRing(5);
    ring.append('ééé'); // 6 bytes: the first é is cut in half
    expect(ring.text()).toBe('éé');
  });

  it('stays bounded however much is appended', () => {
    const ring = new LogRing(1024);
    for (let index = 0; index < 10_000; index += 1) ring.append(`line ${index}\n`);
    expect(Buffer.byteLength(ring.text())).toBeLessThanOrEqual(1024);
    expect(ring.tail(2)).toBe('line 9998\nline 9999');
  });
});
