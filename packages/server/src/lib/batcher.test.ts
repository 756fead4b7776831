import { describe, expect, it } from 'vitest';
import { Batcher } from './batcher.js';

describe('Batcher (group commit)', () => {
  it('hands inputs that arrive together to one run and answers each in order', async () => {
    const runs: number[][] = [];
    const batcher = new Batcher<number, number>({ run: (inputs) => (runs.push(inputs), Promise.resolve(inputs.map((n) => n * 2))), maxBatch: 100, concurrency: 1 });
    const results = await Promise.all([1, 2, 3].map((n) => batcher.add(n)));
    expect(results).toEqual([2, 4, 6]);
    expect(runs).toEqual([[1, 2, 3]]);
  });

  it('collects what arrives during a run into the next batch', async () => {
    const runs: number[][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batcher = new Batcher<number, number>({
      run: async (inputs) => {
        runs.push(inputs);
        if (runs.length === 1) await gate;
        return inputs;
      },
      maxBatch: 100,
      concurrency: 1,
    });
    const first = batcher.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [2, 3, 4].map((n) => batcher.add(n));
    release();
    await Promise.all([first, ...later]);
    expect(runs).toEqual([[1], [2, 3, 4]]);
  });

  it('splits batches at maxBatch and rejects every input of a failed run', async () => {
    const sizes: number[] = [];
    const batcher = new Batcher<number, number>({
      run: (inputs) => {
        sizes.push(inputs.length);
        return inputs.includes(5) ? Promise.reject(new Error('boom')) : Promise.resolve(inputs);
      },
      maxBatch: 3,
      concurrency: 1,
    });
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map((n) => batcher.add(n)));
    expect(sizes).toEqual([3, 3]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected']);
  });

  it('drains: resolves once everything handed over is handled', async () => {
    let handled = 0;
    const batcher = new Batcher<number, number>({ run: (inputs) => ((handled += inputs.length), Promise.resolve(inputs)), maxBatch: 2, concurrency: 1 });
    void batcher.add(1);
    void batcher.add(2);
    void batcher.add(3);
    await batcher.drain();
    expect(handled).toBe(3);
  });
});

describe('Batcher with isolateFailures', () => {
  it('runs each input of a failed batch alone, so only the bad one fails', async () => {
    const runs: number[][] = [];
    const batcher = new Batcher<number, number>({
      run: (inputs) => {
        runs.push(inputs);
        return inputs.includes(2) ? Promise.reject(new Error(`bad ${inputs.join(',')}`)) : Promise.resolve(inputs.map((n) => n * 10));
      },
      maxBatch: 10,
      concurrency: 1,
      isolateFailures: true,
    });
    const results = await Promise.allSettled([1, 2, 3].map((n) => batcher.add(n)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 10 },
      { status: 'rejected', reason: new Error('bad 2') },
      { status: 'fulfilled', value: 30 },
    ]);
    expect(runs).toEqual([[1, 2, 3], [1], [2], [3]]);
  });
});
