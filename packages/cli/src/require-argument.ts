import { ServiceError } from '@svc/protocol';

/** A positional argument that must not be empty (commander already requires its presence). */
export function requireArgument(value: string | undefined, what: string): string {
  if (value === undefined || value.trim() === '') throw new ServiceError('usage', `give ${what}`);
  return value.trim();
}
