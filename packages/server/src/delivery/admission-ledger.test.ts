import { describe, expect, it } from 'vitest';
import { AdmissionLedger, type LedgerSettings, type ShareKey } from './admission-ledger.js';

const defaults: LedgerSettings = { concurrency: 64, perWebhook: 8, perProject: 16, capacity: 128, depth: 4, aheadHorizonMs: 100 };
const ledgerWith = (settings: Partial<LedgerSettings> = {}) => new AdmissionLedger({ ...defaults, ...settings });
const key = (webhookId: string, projectId = 'prj_a'): ShareKey => ({ webhookId, projectId });

/** Holds `count` deliveries of `of` and starts as many requests as the ledger lets start; returns how many started. */
function holdAndStart(ledger: AdmissionLedger, of: ShareKey, count: number): number {
  let started = 0;
  for (let index = 0; index < count; index += 1) ledger.hold(of);
  for (let index = 0; index < count && ledger.mayStart(of); index += 1) {
    ledger.started(of);
    started += 1;
  }
  return started;
}

/** A few quick successful attempts, so the webhook counts as fast. */
function makeFast(ledger: AdmissionLedger, webhookId: string, durationMs = 2, projectId = 'prj_a'): void {
  for (let index = 0; index < 5; index += 1) ledger.attempted(key(webhookId, projectId), { succeeded: true, durationMs });
}

describe('request slots', () => {
  it('lets a webhook send its share at once, and another webhook of the project the rest of the project’s share', () => {
    const ledger = ledgerWith();
    expect(holdAndStart(ledger, key('wh_1'), 20)).toBe(8);
    expect(holdAndStart(ledger, key('wh_2'), 20)).toBe(8);
    expect(holdAndStart(ledger, key('wh_3'), 20)).toBe(0);
    // Another project is not held back by the first one.
    expect(holdAndStart(ledger, key('wh_4', 'prj_b'), 20)).toBe(8);
  });

  it('never lets the process send more than its concurrency', () => {
    const ledger = ledgerWith({ concurrency: 10 });
    expect(holdAndStart(ledger, key('wh_1', 'prj_a'), 8)).toBe(8);
    expect(holdAndStart(ledger, key('wh_2', 'prj_b'), 8)).toBe(2);
    expect(ledger.inFlight).toBe(10);
  });

  it('frees the slot and the holding when a request ends', () => {
    const ledger = ledgerWith({ perWebhook: 1 });
    holdAndStart(ledger, key('wh_1'), 2);
    expect(ledger.mayStart(key('wh_1'))).toBe(false);
    ledger.ended(key('wh_1'));
    expect(ledger.mayStart(key('wh_1'))).toBe(true);
    expect(ledger.held).toBe(1);
  });

  it('refuses to start a request for a delivery it does not hold, or beyond the shares', () => {
    const ledger = ledgerWith({ perWebhook: 1 });
    expect(() => ledger.started(key('wh_1'))).toThrow(/held delivery/);
    holdAndStart(ledger, key('wh_1'), 2);
    expect(() => ledger.started(key('wh_1'))).toThrow(/within its shares/);
  });
});

describe('a struggling webhook', () => {
  it('has one request in flight and holds one delivery from its first failure until a success', () => {
    const ledger = ledgerWith();
    makeFast(ledger, 'wh_1');
    ledger.attempted(key('wh_1'), { succeeded: false, durationMs: 3 });
    expect(ledger.share('wh_1')).toBe(1);
    expect(ledger.holdLimit('wh_1')).toBe(1);
    expect(holdAndStart(ledger, key('wh_1'), 5)).toBe(1);
    // Of the four waiting, all go back: the one in flight is all it may hold.
    expect(ledger.overHolding('wh_1')).toBe(4);
    ledger.attempted(key('wh_1'), { succeeded: true, durationMs: 3 });
    expect(ledger.share('wh_1')).toBe(8);
    expect(ledger.overHolding('wh_1')).toBe(0);
  });
});

describe('leasing ahead of the share', () => {
  it('holds only the share for a webhook whose requests it has not timed yet', () => {
    const ledger = ledgerWith();
    expect(ledger.holdLimit('wh_1')).toBe(8);
    expect(ledger.holdRoom(key('wh_1'))).toBe(8);
  });

  it('holds up to depth × share for a fast receiver, nothing ahead for a slow one', () => {
    const ledger = ledgerWith();
    makeFast(ledger, 'wh_fast', 2);
    makeFast(ledger, 'wh_slow', 2_000);
    ledger.attempted(key('wh_medium'), { succeeded: true, durationMs: 100 });
    expect(ledger.holdLimit('wh_fast')).toBe(32);
    expect(ledger.holdLimit('wh_slow')).toBe(8);
    // 8 requests of 100 ms send 8 within the 100 ms horizon.
    expect(ledger.holdLimit('wh_medium')).toBe(16);
  });

  it('stops leasing ahead for a webhook whose waiting delivery stalled, and gives the excess back', () => {
    const ledger = ledgerWith();
    makeFast(ledger, 'wh_1');
    expect(holdAndStart(ledger, key('wh_1'), 32)).toBe(8);
    expect(ledger.overHolding('wh_1')).toBe(0);
    ledger.stalled('wh_1', 1_500);
    expect(ledger.holdLimit('wh_1')).toBe(8);
    expect(ledger.overHolding('wh_1')).toBe(24);
  });

  it('lets a project hold ahead of its share only what its timed webhooks hold ahead of theirs', () => {
    const ledger = ledgerWith();
    // Three webhooks never timed (hanging since their first request): the project holds its share.
    for (const webhookId of ['wh_1', 'wh_2', 'wh_3']) for (let index = 0; index < 8 && ledger.holdRoom(key(webhookId)) > 0; index += 1) ledger.hold(key(webhookId));
    expect(ledger.held).toBe(16);
    expect(ledger.holdRoom(key('wh_4'))).toBe(0);
    // A fast webhook of the project may hold its 24 ahead.
    makeFast(ledger, 'wh_4');
    expect(ledger.holdRoom(key('wh_4'))).toBe(24);
    expect(ledger.holdRoom(key('wh_5', 'prj_b'))).toBe(8);
  });

  it('keeps what is held ahead of the shares to half the capacity, and everything to the capacity', () => {
    const ledger = ledgerWith({ capacity: 64 });
    for (const [webhookId, projectId] of [['wh_1', 'prj_a'], ['wh_2', 'prj_b'], ['wh_3', 'prj_c']] as const) makeFast(ledger, webhookId, 2, projectId);
    for (let index = 0; index < 32; index += 1) ledger.hold(key('wh_1'));
    // 24 of the 32 ahead: 8 more ahead for another webhook, with its share.
    expect(ledger.holdRoom(key('wh_2', 'prj_b'))).toBe(16);
    for (let index = 0; index < 16; index += 1) ledger.hold(key('wh_2', 'prj_b'));
    expect(ledger.holdRoom(key('wh_3', 'prj_c'))).toBe(8);
    for (let index = 0; index < 8; index += 1) ledger.hold(key('wh_3', 'prj_c'));
    expect(ledger.holdRoom(key('wh_4', 'prj_d'))).toBe(8);
    for (let index = 0; index < 8; index += 1) ledger.hold(key('wh_4', 'prj_d'));
    expect(ledger.held).toBe(64);
    expect(ledger.holdRoom(key('wh_5', 'prj_e'))).toBe(0);
  });
});

describe('refills of the backlog', () => {
  it('claims for a webhook of the backlog once half its holding is free, up to its room', () => {
    const ledger = ledgerWith();
    makeFast(ledger, 'wh_1');
    ledger.addBacklog(key('wh_1'));
    for (let index = 0; index < 17; index += 1) ledger.hold(key('wh_1'));
    expect(ledger.refills()).toEqual([]);
    ledger.release(key('wh_1'));
    expect(ledger.refills()).toEqual([{ webhookId: 'wh_1', projectId: 'prj_a', limit: 16 }]);
  });

  it('claims nothing for a webhook that caught up', () => {
    const ledger = ledgerWith();
    ledger.addBacklog(key('wh_1'));
    ledger.caughtUp('wh_1');
    expect(ledger.hasBacklog('wh_1')).toBe(false);
    expect(ledger.refills()).toEqual([]);
  });

  it('serves the webhooks that hold the fewest first, within the room of their project and of the process', () => {
    const ledger = ledgerWith({ capacity: 20 });
    for (let index = 0; index < 4; index += 1) ledger.hold(key('wh_busy'));
    for (const webhookId of ['wh_busy', 'wh_idle']) ledger.addBacklog(key(webhookId));
    ledger.addBacklog(key('wh_other', 'prj_b'));
    expect(ledger.refills()).toEqual([
      { webhookId: 'wh_idle', projectId: 'prj_a', limit: 8 },
      { webhookId: 'wh_other', projectId: 'prj_b', limit: 8 },
    ]);
  });

  it('wants a refill when half a backlogged webhook’s holding is free, and when its full project has room again', () => {
    const ledger = ledgerWith({ perWebhook: 4, perProject: 4, depth: 1 });
    ledger.addBacklog(key('wh_1'));
    ledger.addBacklog(key('wh_2'));
    for (let index = 0; index < 4; index += 1) ledger.hold(key('wh_1'));
    ledger.release(key('wh_1'));
    // The project's holding of four had no room: one is free for the backlog.
    expect(ledger.wantsRefill(key('wh_1'))).toBe(true);
    ledger.caughtUp('wh_2');
    expect(ledger.wantsRefill(key('wh_1'))).toBe(false);
    ledger.release(key('wh_1'));
    expect(ledger.wantsRefill(key('wh_1'))).toBe(true);
  });
});
