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

  it('shows control characters from requests escaped, so that they can neither colour the terminal nor start a line', () => {
    const fake = '\n09:05:07 INFO  svc is ready';
    const record = JSON.stringify({
      level: 40,
      time: at,
      msg: `no site for host \u001b[31mevil\u001b[0m${fake}`,
      host: 'evil\u001b]0;title\u0007.example',
      path: '/a\rb',
      userAgent: 'agent\u007f\u0085\u009b2J',
      [`key\u001b`]: 'x',
      err: { message: 'bad \u001b[2J', stack: 'Error: bad \u001b[2J\r\n    at x' },
    });
    const text = formatLogLine(record, { colors: false });
    expect(text).toBe(
      '09:05:07 WARN  no site for host \\e[31mevil\\e[0m\\n09:05:07 INFO  svc is ready host=evil\\e]0;title\\u{7}.example ' +
        'path="/a\\rb" userAgent=agent\\u{7f}\\u{85}\\u{9b}2J key\\e=x\n    Error: bad \\e[2J\\r\n        at x\n',
    );
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(text.slice(0, -1).replace(/\n {4}/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('escapes control characters in a line that is not JSON', () => {
    expect(formatLogLine('plain \u001b[2J\rfake\n', { colors: false })).toBe('plain \\e[2J\\rfake\n');
  });
});
