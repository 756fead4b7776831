import { describe, expect, it } from 'vitest';
import { runPool } from './pool.js';

/** A job that waits until `release` is called for its index, recording how many ran at once. */
function gatedJobs() {
  const started: number[] = [];
  const releases = new Map<number, () => void>();
  let running = 0;
  let most = 0;
  const job = async (index: number): Promise<void> => {
    started.push(index);
    running += 1;
    most = Math.max(most, running);
    await new Promise<void>((resolve) => releases.set(index, resolve));
    running -= 1;
  };
  const release = async (index: number): Promise<void> => {
    releases.get(index)!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { job, release, started, most: () => most };
}

describe('a pool of jobs', () => {
  it('runs every index once, in order, with at most the given number in flight', async () => {
    const jobs = gatedJobs();
    const done = runPool(5, 2, jobs.job);
    await new Promise((resolve) => setImmediate(resolve));
    expect(jobs.started).toEqual([0, 1]);
    await jobs.release(1);
    expect(jobs.started).toEqual([0, 1, 2]);
    for (const index of [0, 2, 3, 4]) await jobs.release(index);
    await done;
    expect(jobs.started).toEqual([0, 1, 2, 3, 4]);
    expect(jobs.most()).toBe(2);
  });

  it('starts no more runners than there are jobs, and ends at once with none', async () => {
    const jobs = gatedJobs();
    const done = runPool(1, 8, jobs.job);
    await new Promise((resolve) => setImmediate(resolve));
    await jobs.release(0);
    await done;
    expect(jobs.started).toEqual([0]);
    await expect(runPool(0, 4, jobs.job)).resolves.toBeUndefined();
  });

  it('rejects with the failure of a job', async () => {
    await expect(
      runPool(3, 2, (index) => (index === 1 ? Promise.reject(new Error('job 1 failed')) : Promise.resolve())),
    ).rejects.toThrow('job 1 failed');
  });
});
