import { describe, expect, it } from 'vitest';
import { WriteLock } from './write-lock.js';

describe('WriteLock', () => {
  it('lets one holder in at a time, in the order they asked', async () => {
    const lock = new WriteLock();
    const order: string[] = [];
    const hold = async (name: string, turns: number) => {
      const release = await lock.acquire();
      order.push(`${name} in`);
      for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
      order.push(`${name} out`);
      release();
    };
    await Promise.all([hold('a', 3), hold('b', 1), hold('c', 2)]);
    expect(order).toEqual(['a in', 'a out', 'b in', 'b out', 'c in', 'c out']);
  });

  it('is free again once released', async () => {
    const lock = new WriteLock();
    (await lock.acquire())();
    const second = await Promise.race([lock.acquire(), new Promise((resolve) => setTimeout(() => resolve('blocked'), 50))]);
    expect(typeof second).toBe('function');
  });
});
