import pino, { type Logger } from 'pino';

/**
 * Structured logs on stderr (stdout is kept for the `listening on …` line). Tokens,
 * cookies and secrets are redacted wherever they might appear; submission contents are
 * never logged.
 */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: { service: 'svc' },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.token', '*.secret', '*.password', 'headers.authorization'],
        censor: '[redacted]',
      },
    },
    pino.destination({ dest: 2, sync: true }),
  );
}
