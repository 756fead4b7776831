/** Parsers for human-written configuration values: `svc serve` flags, environment variables and CLI options. */

const durationUnits: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `250ms`, `3s`, `15m`, `1h`, `2d`; a bare number is seconds. Returns milliseconds. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(text);
  if (!match) throw new Error(`"${text}" is not a duration; write e.g. 500ms, 3s, 15m, 1h`);
  const value = Number(match[1]) * (durationUnits[(match[2] ?? 's').toLowerCase()] ?? 1_000);
  if (!Number.isFinite(value)) throw new Error(`"${text}" is not a duration`);
  return Math.round(value);
}

/** Seconds as people write them back: `90d`, `12h`, `45m`, `30s` (the largest unit that divides them), what parseDuration() reads. */
export function formatDurationSeconds(seconds: number): string {
  for (const [unit, size] of [['d', 86_400], ['h', 3_600], ['m', 60]] as const) if (seconds % size === 0) return `${seconds / size}${unit}`;
  return `${seconds}s`;
}

/** `1s,2s,4s` → [1000, 2000, 4000]. */
export function parseDurationList(text: string): number[] {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length === 0 || parts.some((part) => part === '')) throw new Error(`"${text}" is not a comma-separated list of durations`);
  return parts.map(parseDuration);
}

const sizeUnits: Record<string, number> = { b: 1, kb: 1_000, kib: 1_024, mb: 1_000_000, mib: 1_048_576, gb: 1_000_000_000, gib: 1_073_741_824 };

/** `1048576`, `512kb`, `10MiB`, `25mb` → bytes. */
export function parseSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]i?b|b)?\s*$/i.exec(text);
  if (!match) throw new Error(`"${text}" is not a size; write e.g. 1048576, 512KiB, 10MiB`);
  const bytes = Math.floor(Number(match[1]) * (sizeUnits[(match[2] ?? 'b').toLowerCase()] ?? 1));
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new Error(`"${text}" is not a size of at least one byte`);
  return bytes;
}

/** A whole number within bounds. */
export function parseCount(text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`"${text}" must be a whole number from ${min} to ${max}`);
  }
  return value;
}

/** `1`, `true`, `yes`, `on` → true; `0`, `false`, `no`, `off`, `` → false. */
export function parseBoolean(text: string): boolean {
  const value = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(value)) return false;
  throw new Error(`"${text}" is not a boolean; write true or false`);
}
