import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../lib/ids.js';
import { openStore } from '../store/open-store.js';
import type { DeliveryJob } from '../store/queries/delivery-jobs.js';
import { ensureWorkspace, insertProject } from '../store/queries/projects.js';
import { insertWebhook } from '../store/queries/webhooks.js';
import type { Store } from '../store/store.js';
import { AdmissionLedger } from './admission-ledger.js';
import { ClaimLoop, discoverEveryMs, type ClaimLoopMode } from './claim-loop.js';

let dataDir: string;
let store: Store;
let projectId: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-claim-loop-'));
  store = await openStore({ dataDir });
  const workspace = await ensureWorkspace(store.db, 'agency');
  projectId = (await insertProject(store.db, { workspaceId: workspace.id, name: 'site', framework: 'static', environments: { production: { branch: 'main' } }, pinpoints: {}, auto: {} })).id;
  const webhook = { id: newId('wh'), project_id: projectId, url: 'http://127.0.0.1:9/hook', events: JSON.stringify(['*']), description: null, kind: 'http' as const, form_id: null };
  const sealed = { secret: 'sealed', previous_secret: null, previous_secret_expires_at: null };
  await insertWebhook(store.db, { ...webhook, ...sealed, enabled: 1, disabled_reason: null, failing_since: null, created_at: 0, updated_at: 0 });
});
afterAll(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function addEvents(count: number): Promise<void> {
  const now = Date.now();
  const rows = Array.from({ length: count }, () => ({ id: newId('evt', now), project_id: projectId, type: 'form.submission.created', payload: '{}', created_at: now, dispatched_at: null, test: 0 }));
  await store.db.insertInto('events').values(rows).execute();
}

/**
 * A claim loop over the real store, whose transactions (rounds) are counted, may be held at a
 * gate, or fail once; with the leased jobs and the failures it reported.
 */
function loopOver(options: { gate?: Promise<void>; failFirst?: boolean; now?: () => number } = {}) {
  let rounds = 0;
  const leased: DeliveryJob[] = [];
  const failures: string[] = [];
  const counted: Store = {
    ...store,
    transaction: async (work, transactionOptions) => {
      rounds += 1;
      if (rounds === 1) await options.gate;
      if (rounds === 1 && options.failFirst) throw new Error('the database went away');
      return store.transaction(work, transactionOptions);
    },
  };
  const ledger = new AdmissionLedger({ concurrency: 64, perWebhook: 8, perProject: 16, capacity: 128, depth: 8, aheadHorizonMs: 100 });
  const loop = new ClaimLoop({
    store: counted,
    ledger,
    owner: `test/${newId('own')}`,
    leaseMs: 60_000,
    eventBatch: 200,
    pollIntervalMs: 30_000,
    now: options.now ?? Date.now,
    leased: (jobs) => leased.push(...jobs),
    reportFailure: (_error, context) => failures.push(context),
    retryAfterFailureMs: 10,
  });
  return { loop, leased, failures, rounds: () => rounds };
}

/** Waits (bounded) until the loop is in `mode`. */
async function until(loop: ClaimLoop, mode: ClaimLoopMode): Promise<void> {
  for (let waited = 0; loop.currentMode !== mode; waited += 5) {
    if (waited > 5_000) throw new Error(`the claim loop stayed ${loop.currentMode}, not ${mode}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the claim loop', () => {
  it('is idle until a wake-up, claims in a round, and is idle again once nothing more is asked', async () => {
    const { loop, leased, rounds } = loopOver();
    expect(loop.currentMode).toBe('idle');
    await addEvents(3);
    loop.wake({ events: true });
    expect(loop.currentMode).toBe('claiming');
    await until(loop, 'idle');
    // The webhook's share is 8: all three new deliveries are leased at once.
    expect(leased).toHaveLength(3);
    expect(rounds()).toBe(1);
    await loop.stop();
  });

  it('merges the wake-ups that come during a round into one next round', async () => {
    let open: () => void = () => undefined;
    const { loop, rounds } = loopOver({ gate: new Promise((resolve) => (open = resolve)) });
    loop.wake({ events: true });
    for (let index = 0; index < 3; index += 1) loop.wake({ events: true });
    expect(loop.currentMode).toBe('claiming');
    open();
    await until(loop, 'idle');
    expect(rounds()).toBe(2);
    await loop.stop();
  });

  it('backs off after a failed round, then claims again what it was asked', async () => {
    await addEvents(2);
    const { loop, leased, failures, rounds } = loopOver({ failFirst: true });
    loop.wake({ events: true });
    await until(loop, 'backing-off');
    expect(failures).toEqual(['delivery worker: claiming work failed; trying again shortly']);
    // Wake-ups while backing off wait for the retry.
    loop.wake({ events: true });
    expect(loop.currentMode).toBe('backing-off');
    await until(loop, 'idle');
    expect(leased).toHaveLength(2);
    // The failed round, the retry (events, then its discovery in the round after).
    expect(rounds()).toBe(3);
    await loop.stop();
  });

  it(`looks for due work at most every ${discoverEveryMs} ms, keeping a discovery asked for sooner for then`, async () => {
    let clock = 1_000_000;
    const { loop, rounds } = loopOver({ now: () => clock });
    loop.wake({ discover: true });
    await until(loop, 'idle');
    expect(rounds()).toBe(1);
    loop.wake({ discover: true });
    await until(loop, 'idle');
    expect(rounds()).toBe(1);
    clock += discoverEveryMs;
    for (let waited = 0; rounds() < 2 && waited < 5_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(rounds()).toBe(2);
    await loop.stop();
  });

  it('stops from any mode, waiting for the round in flight, and claims nothing after', async () => {
    let open: () => void = () => undefined;
    await addEvents(1);
    const { loop, leased, rounds } = loopOver({ gate: new Promise((resolve) => (open = resolve)) });
    loop.wake({ events: true });
    const stopped = loop.stop();
    expect(loop.currentMode).toBe('stopped');
    open();
    await stopped;
    // The round in flight still hands its leases over, to be given back by the worker.
    expect(leased).toHaveLength(1);
    loop.wake({ events: true });
    expect(loop.currentMode).toBe('stopped');
    expect(rounds()).toBe(1);
  });
});
