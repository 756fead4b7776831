import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { StagedFile } from './file-store.js';
import { HeldBytes, holdOrSpool, type HeldFile } from './held-files.js';

function chunksOf(...sizes: number[]): AsyncIterable<Uint8Array> {
  let value = 0;
  return Readable.from(sizes.map((size) => Uint8Array.from({ length: size }, () => value++ % 256)));
}

function bytesOf(...sizes: number[]): Buffer {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  return Buffer.from(Uint8Array.from({ length: total }, (_, index) => index % 256));
}

/** A spool that reads everything it is given, and a commit that records what it was asked to store alone. */
function recordingStore() {
  const spooled: Buffer[] = [];
  const committedAlone: HeldFile[] = [];
  return {
    spooled,
    committedAlone,
    spool: async (content: AsyncIterable<Uint8Array>): Promise<StagedFile> => {
      const parts: Uint8Array[] = [];
      for await (const chunk of content) parts.push(chunk);
      const bytes = Buffer.concat(parts);
      spooled.push(bytes);
      return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, commit: () => Promise.resolve(), discard: () => Promise.resolve() };
    },
    commitAlone: (file: HeldFile) => {
      committedAlone.push(file);
      return Promise.resolve();
    },
  };
}

describe('holding small files in memory', () => {
  it('holds a file within the size and the budget, with its hash, and gives the budget back when discarded', async () => {
    const budget = new HeldBytes(1000);
    const store = recordingStore();
    const staged = await holdOrSpool(chunksOf(100, 200), { holdUpTo: 300 }, budget, store.spool, store.commitAlone);
    const expected = bytesOf(100, 200);
    expect(staged.held?.content).toEqual(expected);
    expect(staged.sha256).toBe(createHash('sha256').update(expected).digest('hex'));
    expect(staged.size).toBe(300);
    expect(store.spooled).toHaveLength(0);
    expect(budget.inUse).toBe(300);
    await staged.discard();
    await staged.discard();
    expect(budget.inUse).toBe(0);
  });

  it('spools a file that grows past the size, the bytes read so far first, and holds nothing of it', async () => {
    const budget = new HeldBytes(10_000);
    const store = recordingStore();
    const staged = await holdOrSpool(chunksOf(100, 200, 300), { holdUpTo: 250 }, budget, store.spool, store.commitAlone);
    expect(staged.held).toBeUndefined();
    expect(store.spooled).toEqual([bytesOf(100, 200, 300)]);
    expect(budget.inUse).toBe(0);
  });

  it('spools once the budget of all requests is spent, and holds again when it is given back', async () => {
    const budget = new HeldBytes(500);
    const store = recordingStore();
    const first = await holdOrSpool(chunksOf(400), { holdUpTo: 1000 }, budget, store.spool, store.commitAlone);
    const second = await holdOrSpool(chunksOf(200), { holdUpTo: 1000 }, budget, store.spool, store.commitAlone);
    expect(first.held).toBeDefined();
    expect(second.held).toBeUndefined();
    expect(store.spooled).toEqual([bytesOf(200)]);
    await first.discard();
    const third = await holdOrSpool(chunksOf(200), { holdUpTo: 1000 }, budget, store.spool, store.commitAlone);
    expect(third.held).toBeDefined();
    expect(budget.inUse).toBe(200);
  });

  it('gives the budget back when the content fails half-way', async () => {
    const budget = new HeldBytes(1000);
    const store = recordingStore();
    let sent = false;
    const failing: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => {
          if (sent) return Promise.reject(new Error('the client went away'));
          sent = true;
          return Promise.resolve({ done: false, value: new Uint8Array(100) });
        },
      }),
    };
    await expect(holdOrSpool(failing, { holdUpTo: 500 }, budget, store.spool, store.commitAlone)).rejects.toThrow('the client went away');
    expect(budget.inUse).toBe(0);
  });

  it('commits a held file on its own when asked to, and frees its memory then', async () => {
    const budget = new HeldBytes(1000);
    const store = recordingStore();
    const staged = await holdOrSpool(chunksOf(50), { holdUpTo: 100 }, budget, store.spool, store.commitAlone);
    await staged.commit();
    expect(store.committedAlone.map((file) => file.sha256)).toEqual([staged.sha256]);
    expect(budget.inUse).toBe(0);
  });
});
