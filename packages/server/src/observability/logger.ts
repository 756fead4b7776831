import { writeSync } from 'node:fs';
import pino, { type DestinationStream, type Logger } from 'pino';
import { formatLogLine } from './log-lines.js';

/** JSON records (one a line, for machines), or lines for people on a terminal (docs/server.md#logs). */
export type LogFormat = 'json' | 'lines';

/**
 * Logs on stderr (stdout is kept for the `listening on …` line). Tokens, cookies and
 * secrets are redacted wherever they might appear; submission contents are never logged.
 */
export function createLogger(level: string, format: LogFormat = 'json', options: { colors?: boolean } = {}): Logger {
  const settings = {
    level,
    base: { service: 'svc' },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.token', '*.secret', '*.password', 'headers.authorization'],
      censor: '[redacted]',
    },
  };
  if (format === 'json') return pino(settings, pino.destination({ dest: 2, sync: true }));
  const colors = options.colors ?? false;
  // Written at once, like the JSON destination: a line is never lost to a crash that follows it.
  const lines: DestinationStream = { write: (record: string) => void writeSync(2, formatLogLine(record, { colors })) };
  return pino(settings, lines);
}
