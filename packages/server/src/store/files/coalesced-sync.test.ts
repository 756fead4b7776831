import { describe, expect, it } from 'vitest';
import { CoalescedSync } from './coalesced-sync.js';

/** A sync whose runs end when the test says so. */
function gatedSync() {
  const runs: (() => void)[] = [];
  const sync = new CoalescedSync(() => new Promise<void>((resolve) => runs.push(resolve)));
  return { sync, runs };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('a coalesced directory sync', () => {
  it('answers a lone caller with a sync of its own', async () => {
    const { sync, runs } = gatedSync();
    const done = sync.sync();
    expect(runs).toHaveLength(1);
    runs[0]!();
    await done;
  });

  it('answers every caller that came while a sync ran with one later sync, never the running one', async () => {
    const { sync, runs } = gatedSync();
    const first = sync.sync();
    let laterDone = 0;
    const later = Array.from({ length: 10 }, () => sync.sync().then(() => void (laterDone += 1)));
    expect(runs).toHaveLength(1);
    runs[0]!();
    await first;
    await settled();
    expect(laterDone).toBe(0);
    expect(runs).toHaveLength(2);
    runs[1]!();
    await Promise.all(later);
    expect(laterDone).toBe(10);
    expect(runs).toHaveLength(2);
  });

  it('passes a failed sync to its callers and syncs again for the next', async () => {
    let calls = 0;
    const sync = new CoalescedSync(() => (++calls === 1 ? Promise.reject(new Error('EIO')) : Promise.resolve()));
    await expect(sync.sync()).rejects.toThrow('EIO');
    await sync.sync();
    expect(calls).toBe(2);
  });
});
