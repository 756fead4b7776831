import { describe, expect, it } from 'vitest';
import { BuildLog } from './build-log.js';

describe('BuildLog', () => {
  it('keeps the last 1 MiB in UTF-8 bytes, not characters', () => {
    const log = new BuildLog();
    const line = `${'é'.repeat(1023)}\n`; // 2,047 bytes
    for (let index = 0; index < 1024; index += 1) log.append(line);
    expect(Buffer.byteLength(log.value)).toBeLessThanOrEqual(1024 * 1024);
    expect(Buffer.byteLength(log.value)).toBeGreaterThan(1024 * 1024 - 4);
    expect(log.value.length).toBeLessThan(1024 * 1024);
    expect(log.value.startsWith('\uFFFD')).toBe(false);
  });

  it('says once after each change that the stored copy is behind, and gives the last lines', () => {
    const log = new BuildLog();
    expect(log.takeChanged()).toBe(false);
    log.append('one\ntwo\nthree\n');
    expect(log.takeChanged()).toBe(true);
    expect(log.takeChanged()).toBe(false);
    expect(log.lastLines(2)).toBe('two\nthree');
  });
});
