import { ServiceError } from '@svc/protocol';

/** `--limit` of the listing commands: a whole number from 1 to the listing's maximum. */
export function parsePageLimit(text: string, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < 1 || value > max) {
    throw new ServiceError('usage', `--limit must be a whole number from 1 to ${max}`);
  }
  return value;
}
