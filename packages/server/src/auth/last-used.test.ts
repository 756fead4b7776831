import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/open-store.js';
import { insertToken } from '../store/queries/tokens.js';
import type { Store } from '../store/store.js';
import { LastUsedRecorder } from './last-used.js';

let dataDir: string;
let store: Store;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-last-used-'));
  store = await openStore({ dataDir });
});
afterAll(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

const lastUsed = async (id: string): Promise<number | null> =>
  (await store.db.selectFrom('tokens').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow()).last_used_at;

describe('recording when tokens were last used', () => {
  it('writes at most once per interval per token, and never on the caller\'s turn', async () => {
    const token = await insertToken(store.db, { name: 't', tokenHash: 'a'.repeat(64), workspaceId: null });
    const writes: number[] = [];
    const recorder = new LastUsedRecorder(store.db, (error) => {
      throw error;
    }, 60_000);
    const spy = store.db.updateTable.bind(store.db);
    store.db.updateTable = ((...args: Parameters<typeof spy>) => {
      writes.push(Date.now());
      return spy(...args);
    }) as typeof store.db.updateTable;
    try {
      recorder.touch(token.id, 1_000_000, null);
      expect(writes).toHaveLength(0);
      recorder.touch(token.id, 1_030_000, null);
      recorder.touch(token.id, 1_059_999, null);
      await new Promise((resolve) => setImmediate(resolve));
      await recorder.flush();
      expect(writes).toHaveLength(1);
      expect(await lastUsed(token.id)).toBe(1_000_000);

      recorder.touch(token.id, 1_060_000, null);
      await recorder.flush();
      expect(writes).toHaveLength(2);
      expect(await lastUsed(token.id)).toBe(1_060_000);
    } finally {
      store.db.updateTable = spy;
    }
  });

  it('skips a token another instance recorded within the interval, and never moves the time back', async () => {
    const token = await insertToken(store.db, { name: 'u', tokenHash: 'b'.repeat(64), workspaceId: null });
    const recorder = new LastUsedRecorder(store.db, (error) => {
      throw error;
    }, 60_000);
    recorder.touch(token.id, 2_000_000, 1_990_000);
    await recorder.flush();
    expect(await lastUsed(token.id)).toBeNull();

    await store.db.updateTable('tokens').set({ last_used_at: 5_000_000 }).where('id', '=', token.id).execute();
    recorder.touch(token.id, 3_000_000, null);
    await recorder.flush();
    expect(await lastUsed(token.id)).toBe(5_000_000);
  });
});
