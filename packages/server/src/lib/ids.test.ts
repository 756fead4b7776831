import { describe, expect, it } from 'vitest';
import { deployIdPattern, newDeployId, newEndpointId, newId } from './ids.js';

describe('ids', () => {
  it('makes time-ordered ids that sort in creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => newId('sub', 1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
    expect(ids[0]).toMatch(/^sub_[0-9a-hjkmnp-tv-z]{26}$/);
  });

  it('never goes backwards, even when the clock does', () => {
    const later = newId('evt', Date.now() + 60_000);
    const afterClockStep = newId('evt', Date.now());
    expect(afterClockStep > later).toBe(true);
  });

  it('makes endpoint ids of at least 96 random bits that never repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newEndpointId()));
    expect(ids.size).toBe(10_000);
    for (const id of [...ids].slice(0, 10)) expect(id.length * 5).toBeGreaterThanOrEqual(96);
  });

  it('makes deploy ids that are DNS labels, time-ordered, and match their pattern', () => {
    const first = newDeployId(1_000);
    const second = newDeployId(2_000);
    expect(first).toMatch(/^[a-z0-9-]{1,63}$/);
    expect([deployIdPattern.test(first), deployIdPattern.test(second), first < second]).toEqual([true, true, true]);
    expect(deployIdPattern.test('dpl-../../etc')).toBe(false);
  });
});
