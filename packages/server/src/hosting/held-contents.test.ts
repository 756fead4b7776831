import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStore } from '../store/files/file-store.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import { HeldContents, maxHeldFileBytes, readAll } from './held-contents.js';

let dataDir: string;
let store: Store;
let files: FileStore;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-held-contents-'));
  store = await openSqliteStore({ dataDir });
  files = store.files;
});
afterAll(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function storeFile(content: Buffer): Promise<string> {
  const staged = await files.stage(Readable.from([content]));
  await staged.commit();
  return staged.sha256;
}

/** The file store, with the files it looked up counted. */
function countingFiles(): { files: Pick<FileStore, 'find'>; found: () => number } {
  let count = 0;
  return {
    files: {
      find: (sha256) => {
        count += 1;
        return files.find(sha256);
      },
    },
    found: () => count,
  };
}

describe('small hosted files held in memory', () => {
  it('reads a small file from the store once and answers it from memory after', async () => {
    const content = randomBytes(4096);
    const sha256 = await storeFile(content);
    const counted = countingFiles();
    const held = new HeldContents(counted.files);
    expect((await held.find(sha256))?.bytes).toEqual(content);
    expect((await held.find(sha256))?.bytes).toEqual(content);
    expect(counted.found()).toBe(1);
  });

  it('streams a file larger than the limit from the store every time, with the size that is stored', async () => {
    const content = randomBytes(maxHeldFileBytes + 1);
    const sha256 = await storeFile(content);
    const counted = countingFiles();
    const held = new HeldContents(counted.files);
    const found = await held.find(sha256);
    expect([found?.size, found?.bytes]).toEqual([content.length, null]);
    expect(await readAll(found!.read({ start: 10, end: 19 }))).toEqual(content.subarray(10, 20));
    await held.find(sha256);
    expect(counted.found()).toBe(2);
  });

  it('answers null for contents that are not stored, and holds nothing for them', async () => {
    const held = new HeldContents(files);
    expect(await held.find('0'.repeat(64))).toBeNull();
    expect(held.get('0'.repeat(64))).toBeUndefined();
  });

  it('forgets everything it holds when cleared (contents removed)', async () => {
    const content = randomBytes(100);
    const sha256 = await storeFile(content);
    const held = new HeldContents(files);
    await held.find(sha256);
    expect(held.get(sha256)).toEqual(content);
    held.clear();
    expect(held.get(sha256)).toBeUndefined();
  });

  it('lets the least recently stored go once the total passes its budget (16 MiB)', () => {
    const held = new HeldContents(files);
    const chunk = Buffer.alloc(maxHeldFileBytes);
    const count = (16 * 1024 * 1024) / maxHeldFileBytes;
    for (let index = 0; index <= count; index += 1) held.hold(`key-${index}`, chunk);
    expect(held.get('key-0')).toBeUndefined();
    expect(held.get('key-1')).toBe(chunk);
    expect(held.get(`key-${count}`)).toBe(chunk);
  });
});
