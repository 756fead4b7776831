import { describe, expect, it } from 'vitest';
import { formatLogLine } from './log-lines.js';

const at = new Date(2026, 10, 26, 9, 5, 7).getTime();

describe('log lines for people', () => {
  it('reads as time, level, message, then the other fields', () => {
    const record = JSON.stringify({ level: 30, time: at, service: 'svc', url: 'http://127.0.0.1:8787', role: 'all', redis: false, msg: 'svc is ready' });
    expect(formatLogLine(record, { colors: false })).toBe('09:05:07 INFO  svc is ready url=http://127.0.0.1:8787 role=all redis=false\n');
  });

  it('quotes a value with spaces and writes objects as JSON', () => {
    const record = JSON.stringify({ level: 40, time: at, msg: 'created', dataDir: '/tmp/my data', limits: { files: 2 } });
    expect(formatLogLine(record, { colors: false })).toBe('09:05:07 WARN  created dataDir="/tmp/my data" limits={"files":2}\n');
  });

  it('puts an error stack on indented lines below its record', () => {
    const record = JSON.stringify({ level: 50, time: at, msg: 'background failure', err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x (y.js:1:1)' } });
    expect(formatLogLine(record, { colors: false })).toBe('09:05:07 ERROR background failure\n    Error: boom\n        at x (y.js:1:1)\n');
  });

  it('colours warnings and errors only when asked', () => {
    const record = JSON.stringify({ level: 50, time: at, msg: 'x' });
    expect(formatLogLine(record, { colors: true })).toContain('\u001b[31mERROR');
    expect(formatLogLine(record, { colors: false })).not.toContain('\u001b');
  });

  it('passes through a line that is not JSON', () => {
    expect(formatLogLine('plain', { colors: false })).toBe('plain\n');
  });
});
