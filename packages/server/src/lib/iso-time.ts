/** Epoch milliseconds as the ISO 8601 strings every answer carries. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

export function isoTimeOrNull(ms: number | null): string | null {
  return ms === null ? null : isoTime(ms);
}
