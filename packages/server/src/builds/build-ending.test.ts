import { describe, expect, it } from 'vitest';
import { logForTry, recordEnd } from './build-ending.js';

describe("recording a build's end", () => {
  it('tries again while the store refuses, with less of the log each time, until it is recorded', async () => {
    const log = 'x'.repeat(200 * 1024);
    const written: string[] = [];
    const failures: number[] = [];
    const recorded = await recordEnd(
      (attempt) => {
        const kept = logForTry(log, 'the disk is full', attempt);
        if (attempt < 2) return Promise.reject(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
        written.push(kept);
        return Promise.resolve();
      },
      { delaysMs: [0, 1, 1, 1], stopped: () => false, onFailure: (_error, attempt) => failures.push(attempt) },
    );
    expect(recorded).toBe(true);
    expect(failures).toEqual([0, 1]);
    expect(written).toEqual(['failed: the disk is full\n']);
  });

  it('keeps the whole log when it can, then its last 64 KiB', () => {
    expect(logForTry('short', 'why', 0)).toBe('short');
    expect(logForTry('short', 'why', 1)).toBe('short');
    const long = `${'a'.repeat(70 * 1024)}THE END`;
    expect(logForTry(long, 'why', 1).endsWith('THE END')).toBe(true);
    expect(logForTry(long, 'why', 1).length).toBeLessThan(65 * 1024 + 10);
  });

  it('gives up when the server stops, and when every try failed', async () => {
    expect(await recordEnd(() => Promise.reject(new Error('no')), { delaysMs: [0, 1], stopped: () => true, onFailure: () => undefined })).toBe(false);
    expect(await recordEnd(() => Promise.reject(new Error('no')), { delaysMs: [0, 1, 1], stopped: () => false, onFailure: () => undefined })).toBe(false);
  });
});
