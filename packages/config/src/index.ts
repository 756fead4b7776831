export { validate } from './validate.js';
export type { ConfigError, Position, ValidationResult } from './config-error.js';
export { applyDefaults, type ResolvedPinpoints, type ResolvedServiceConfig } from './defaults.js';
export { schemaPath, serviceSchema } from './schema.js';
export type {
  Auto,
  Domains,
  Environment,
  Environments,
  Form,
  Hostname,
  Pinpoints,
  ServiceConfig,
  Slug,
} from './service-config.generated.js';
