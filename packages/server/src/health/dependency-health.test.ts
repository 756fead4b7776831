import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { DependencyHealth } from './dependency-health.js';

function recordingLogger(): { logger: pino.Logger; lines: () => { level: number; msg: string }[] } {
  const written: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void written.push(line) });
  return { logger, lines: () => written.map((line) => JSON.parse(line) as { level: number; msg: string }) };
}

describe('dependency health', () => {
  it('logs one line when a dependency goes away and one when it is back, however often it fails meanwhile', () => {
    const { logger, lines } = recordingLogger();
    const health = new DependencyHealth(logger, ['database', 'storage', 'redis'], new Set(['database', 'storage']));
    for (let i = 0; i < 100; i++) health.set('database', `connection refused ${i}`);
    health.set('database', null);
    health.set('database', null);
    expect(lines().map((line) => [line.level, line.msg])).toEqual([
      [50, 'database unavailable: connection refused 0'],
      [30, 'database is back'],
    ]);
  });

  it('keeps a failure reported while a probe was under way: the probe may have looked before it happened', () => {
    const { logger } = recordingLogger();
    let now = 1_000;
    const health = new DependencyHealth(logger, ['database', 'storage'], new Set(['database', 'storage']), () => now);
    const probeStartedAt = now;
    now += 10;
    health.set('storage', 'the disk is full');
    now += 10;
    health.set('storage', null, probeStartedAt);
    expect(health.isOk('storage')).toBe(false);
    health.set('storage', null, now);
    expect(health.isOk('storage')).toBe(true);
  });

  it('is healthy while the essential dependencies work, and says which one does not', () => {
    const { logger } = recordingLogger();
    const health = new DependencyHealth(logger, ['database', 'storage', 'redis'], new Set(['database', 'storage']));
    health.set('redis', 'frozen');
    expect(health.report()).toEqual({ ok: true, checks: { database: 'ok', storage: 'ok', redis: 'unavailable' } });
    health.set('storage', 'the disk is full');
    expect(health.canStore).toBe(false);
    expect(health.report()).toEqual({ ok: false, checks: { database: 'ok', storage: 'unavailable', redis: 'unavailable' } });
  });
});
