import { parseDuration, ServiceError } from '@svc/protocol';

/** `--retention`: `none` → null; else a duration (`90d`) in seconds, with the parser of `svc serve`'s durations. */
export function parseRetention(text: string): number | null {
  if (text.trim().toLowerCase() === 'none') return null;
  try {
    return Math.round(parseDuration(text.trim()) / 1000);
  } catch (error) {
    throw new ServiceError('usage', `--retention: ${(error as Error).message}`);
  }
}
