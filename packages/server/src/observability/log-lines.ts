import { escapeControlCharacters } from '@svc/protocol';

/**
 * pino's JSON records as lines for people (docs/server.md#logs): the time, the level, the
 * message, then the other fields as `key=value`, and an error's stack indented below.
 * pino-pretty does this too, but brings nine dependencies and a worker thread for what is
 * one function here.
 *
 * Records carry text from visitors (paths, hostnames, form names, user agents), so every
 * part of a line is written with its control characters (C0, DEL, C1) and bidirectional
 * overrides shown escaped: a request can neither run a terminal escape sequence nor start
 * a fake log line of its own.
 */

const levelNames: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every record has, shown in their own places (or not at all). */
const placed = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname', 'err']);
const ansi = { dim: '\u001b[2m', yellow: '\u001b[33m', red: '\u001b[31m', reset: '\u001b[0m' };

export interface LogLineStyle {
  /** ANSI colours (warnings yellow, errors red, the time dim). */
  readonly colors: boolean;
}

/** One JSON record (one line of pino's output) as text for people, ending in a newline. */
export function formatLogLine(json: string, style: LogLineStyle): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return `${escapeControlCharacters(json.endsWith('\n') ? json.slice(0, -1) : json)}\n`;
  }
  const level = typeof record['level'] === 'number' ? record['level'] : 30;
  const name = (levelNames[level] ?? String(level)).padEnd(5);
  const time = typeof record['time'] === 'number' ? clock(record['time']) : '--:--:--';
  const message = typeof record['msg'] === 'string' ? escapeControlCharacters(record['msg']) : '';
  const fields = Object.entries(record)
    .filter(([key, value]) => !placed.has(key) && value !== undefined)
    .map(([key, value]) => `${escapeControlCharacters(key)}=${fieldText(value)}`);
  const error = errorText(record['err']);
  const paint = (text: string, colour: string): string => (style.colors ? `${colour}${text}${ansi.reset}` : text);
  const levelText = level >= 50 ? paint(name, ansi.red) : level >= 40 ? paint(name, ansi.yellow) : name;
  const head = [paint(time, ansi.dim), levelText, message, ...fields].filter((part) => part !== '').join(' ');
  return `${head}\n${error}`;
}

/** `HH:MM:SS` in the machine's time zone: a person reads it against the clock on the wall. */
function clock(epochMs: number): string {
  const at = new Date(epochMs);
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

function fieldText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? escapeControlCharacters(value) : escapeControlCharacters(JSON.stringify(value));
  return escapeControlCharacters(JSON.stringify(value) ?? String(value));
}

/** An error's stack (or message), each line indented, so that it reads as part of its record. */
function errorText(error: unknown): string {
  if (error === null || typeof error !== 'object') return '';
  const { stack, message } = error as { stack?: unknown; message?: unknown };
  const text = typeof stack === 'string' ? stack : typeof message === 'string' ? message : JSON.stringify(error);
  return `${text
    .split('\n')
    .map((line) => `    ${escapeControlCharacters(line)}`)
    .join('\n')}\n`;
}
