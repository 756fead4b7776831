import type { ServiceConfig } from '@svc/config';
import { ServiceError } from '@svc/protocol';

/**
 * A service.json document received over the API, checked with exactly the rules of
 * `svc validate` (@svc/config's schema and semantic checks). Invalid: `validation_failed`
 * with every error as `{ pointer, message }`. The validator is loaded on first use: a server
 * that never receives a configuration never pays for it (memory, start time).
 */
export async function validateServiceConfig(document: unknown): Promise<ServiceConfig> {
  const { validate } = await import('@svc/config');
  const result = validate(JSON.stringify(document));
  if (result.ok) return result.config;
  const errors = result.errors.map(({ pointer, message }) => ({ pointer, message }));
  const count = `${errors.length} ${errors.length === 1 ? 'error' : 'errors'}`;
  throw new ServiceError('validation_failed', `the configuration is not valid (${count})`, { errors });
}
