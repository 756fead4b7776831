import { describe, expect, it } from 'vitest';
import type { DeliveryJob } from '../store/queries/delivery-jobs.js';
import { LocalQueue } from './local-queue.js';

const job = (webhookId: string, n: number): DeliveryJob => ({
  deliveryId: `dlv_${webhookId}_${n}`,
  webhookId,
  projectId: 'prj_a',
  kind: 'http',
  eventId: `evt_${n}`,
  eventType: 'form.submission.created',
  payload: '{}',
  test: false,
  url: 'http://127.0.0.1:9/hook',
  sealedSecret: 'sealed',
  sealedPreviousSecret: null,
  previousSecretExpiresAt: null,
  attempts: 0,
  retryBase: 0,
  leaseOwner: 'worker',
  leaseExpiresAt: 60_000,
});

describe('the local queue', () => {
  it('offers the webhooks’ deliveries in turns, each webhook’s in due order', () => {
    const queue = new LocalQueue();
    queue.add([job('wh_a', 1), job('wh_a', 2), job('wh_a', 3), job('wh_b', 1)], 0);
    const taken: string[] = [];
    queue.offer((offered) => (taken.push(offered.deliveryId), true), () => taken.length < 3);
    expect(taken).toEqual(['dlv_wh_a_1', 'dlv_wh_b_1', 'dlv_wh_a_2']);
    expect(queue.size).toBe(1);
  });

  it('keeps what is refused and stops offering once a round takes nothing', () => {
    const queue = new LocalQueue();
    queue.add([job('wh_a', 1), job('wh_b', 1), job('wh_b', 2)], 0);
    const offered: string[] = [];
    queue.offer((one) => (offered.push(one.deliveryId), one.webhookId === 'wh_a'), () => true);
    // wh_b is refused each time it is offered: its first waits, its second is never offered.
    expect(offered).toEqual(['dlv_wh_a_1', 'dlv_wh_b_1', 'dlv_wh_b_1']);
    expect(queue.size).toBe(2);
  });

  it('gives up the last due first, and says which webhooks waited since before a time', () => {
    const queue = new LocalQueue();
    queue.add([job('wh_a', 1), job('wh_a', 2), job('wh_a', 3)], 100);
    queue.add([job('wh_b', 1)], 900);
    expect(queue.takeLast('wh_a', 2).map((one) => one.deliveryId)).toEqual(['dlv_wh_a_2', 'dlv_wh_a_3']);
    expect(queue.stalled(500, 1_200)).toEqual([{ webhookId: 'wh_a', waitedMs: 1_100 }]);
    expect(queue.takeAll().map((one) => one.deliveryId)).toEqual(['dlv_wh_a_1', 'dlv_wh_b_1']);
    expect(queue.size).toBe(0);
  });
});
