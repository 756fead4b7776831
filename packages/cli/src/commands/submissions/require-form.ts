import { ServiceError } from '@svc/protocol';

/** `--form` is required by every submissions command. */
export function requireForm(form: string | undefined): string {
  if (form === undefined || form === '') throw new ServiceError('usage', 'pass the form with --form <slug> (`svc forms list` shows them)');
  return form;
}
