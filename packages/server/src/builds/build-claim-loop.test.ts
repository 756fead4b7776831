import { describe, expect, it } from 'vitest';
import { BuildClaimLoop, type BuildClaimMode } from './build-claim-loop.js';

/** A queue in memory standing for the database: `claim` takes the oldest, one at a time. */
function loopOver(options: { waiting: string[]; room?: number; failFirst?: boolean; gate?: Promise<void> }) {
  const running: string[] = [];
  const failures: string[] = [];
  let claims = 0;
  const room = options.room ?? 1;
  const loop = new BuildClaimLoop<string>({
    claim: async () => {
      claims += 1;
      if (claims === 1) await options.gate;
      if (claims === 1 && options.failFirst) throw new Error('the database went away');
      return options.waiting.shift() ?? null;
    },
    hasRoom: () => running.length < room,
    claimed: (build) => running.push(build),
    reportFailure: (_error, context) => failures.push(context),
    retryAfterFailureMs: 10,
  });
  return { loop, running, failures, claims: () => claims };
}

async function until(loop: BuildClaimLoop<string>, mode: BuildClaimMode): Promise<void> {
  for (let waited = 0; loop.currentMode !== mode; waited += 5) {
    if (waited > 5_000) throw new Error(`the loop stayed ${loop.currentMode}, not ${mode}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("the build worker's claim loop", () => {
  it('is idle until woken, claims while it has room, and is idle again', async () => {
    const { loop, running, claims } = loopOver({ waiting: ['bld_1', 'bld_2', 'bld_3'], room: 2 });
    expect(loop.currentMode).toBe('idle');
    expect(claims()).toBe(0);
    loop.wake();
    expect(loop.currentMode).toBe('claiming');
    await until(loop, 'idle');
    expect(running).toEqual(['bld_1', 'bld_2']);
    expect(claims()).toBe(2);
  });

  it('asks nothing when nothing waits but the one claim that says so', async () => {
    const { loop, running, claims } = loopOver({ waiting: [] });
    loop.wake();
    await until(loop, 'idle');
    expect([running, claims()]).toEqual([[], 1]);
  });

  it('merges wake-ups during a round into one more round', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { loop, running, claims } = loopOver({ waiting: ['bld_1'], room: 4, gate });
    loop.wake();
    for (let index = 0; index < 10; index += 1) loop.wake();
    open();
    await until(loop, 'idle');
    expect(running).toEqual(['bld_1']);
    // The first round (one build, then none), and one more for the ten wake-ups.
    expect(claims()).toBe(3);
  });

  it('backs off after a failed claim, then claims again', async () => {
    const { loop, running, failures } = loopOver({ waiting: ['bld_1'], failFirst: true });
    loop.wake();
    await until(loop, 'backing-off');
    expect(failures).toEqual(['build worker: claiming builds failed; trying again shortly']);
    await until(loop, 'idle');
    expect(running).toEqual(['bld_1']);
  });

  it('claims nothing once stopped, and hands over a claim in flight', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { loop, running, claims } = loopOver({ waiting: ['bld_1', 'bld_2'], room: 4, gate });
    loop.wake();
    const stopped = loop.stop();
    open();
    await stopped;
    expect(loop.currentMode).toBe('stopped');
    expect(running).toEqual(['bld_1']);
    loop.wake();
    expect(claims()).toBe(1);
  });

  it('refuses a transition the modes do not allow', async () => {
    const { loop } = loopOver({ waiting: [] });
    await loop.stop();
    expect(() => (loop as unknown as { enter(mode: BuildClaimMode): void }).enter('claiming')).toThrow(/no way from stopped to claiming/);
  });
});
