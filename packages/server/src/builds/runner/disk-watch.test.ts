import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderBytes } from './disk-usage.js';
import { DiskWatch, type DiskMeasure } from './disk-watch.js';

const limits = { diskBytes: 20 * 1024 ** 2, minFreeBytes: 1024 ** 3, intervalMs: 5 };
const watched = { folders: ['/build'], baselineBytes: 5 * 1024 ** 2, fileSystems: [{ name: 'the build folder', path: '/builds' }, { name: 'the data dir', path: '/data' }] };

function measured(used: number, free: Record<string, number> = {}): DiskMeasure {
  return { folderBytes: () => Promise.resolve(used), freeBytes: (path) => Promise.resolve(free[path] ?? 100 * 1024 ** 3) };
}

describe("a build's disk watch", () => {
  it('stays quiet within the cap, counting only what the build added to the folders', async () => {
    const reasons: string[] = [];
    const watch = new DiskWatch(limits, watched, (reason) => reasons.push(reason), measured(24 * 1024 ** 2));
    expect(await watch.check()).toBeNull();
    expect(reasons).toEqual([]);
  });

  it('names the cap once the build passes it, and calls back once', async () => {
    const reasons: string[] = [];
    const watch = new DiskWatch(limits, watched, (reason) => reasons.push(reason), measured(26 * 1024 ** 2));
    expect(await watch.check()).toBe('the build used 21.0 MiB of disk, more than its cap of 20.0 MiB (--build-disk)');
    await watch.check();
    expect(reasons).toHaveLength(1);
    expect(watch.exceeded).toBe(reasons[0]);
  });

  it('names the file system that is past the watermark', async () => {
    const watch = new DiskWatch(limits, watched, () => undefined, measured(0, { '/data': 512 * 1024 ** 2 }));
    expect(await watch.check()).toBe('the disk is nearly full: the file system of the data dir (/data) has 512.0 MiB free, less than the 1.0 GiB kept free (--build-min-free)');
  });

  it('measures on its own once started, until stopped', async () => {
    let used = 0;
    const reasons: string[] = [];
    const watch = new DiskWatch(limits, watched, (reason) => reasons.push(reason), { folderBytes: () => Promise.resolve(used), freeBytes: () => Promise.resolve(100 * 1024 ** 3) });
    watch.start();
    used = 64 * 1024 ** 2;
    await expect.poll(() => reasons.length, { timeout: 5_000 }).toBe(1);
    await watch.stop();
  });

  it('skips a measure that fails', async () => {
    const watch = new DiskWatch(limits, watched, () => undefined, { folderBytes: () => Promise.reject(new Error('gone')), freeBytes: () => Promise.resolve(100 * 1024 ** 3) });
    expect(await watch.check()).toBeNull();
  });
});

describe('folderBytes', () => {
  it('adds up what folders hold on disk, a missing folder counting 0', async () => {
    const root = await mkdtemp(join(tmpdir(), 'svc-du-'));
    try {
      const before = await folderBytes([root]);
      await writeFile(join(root, 'one'), Buffer.alloc(3 * 1024 * 1024, 1));
      const after = await folderBytes([root, join(root, 'missing')]);
      expect(after - before).toBeGreaterThanOrEqual(3 * 1024 * 1024);
      expect(after - before).toBeLessThan(4 * 1024 * 1024);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
