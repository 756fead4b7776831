export { startServer, type RunningServer } from './server.js';
export { serverOptions, type ServerOptions, type ServerRole } from './server-options.js';
export { defaultFormLimits, type FormLimits } from './forms/limits.js';
export { parsePolicy, formatPolicy, defaultFormPolicy, defaultCliPolicy, type RateLimitPolicy } from './ratelimit/policy.js';
export { openStore } from './store/open-store.js';
export type { Store, Db } from './store/store.js';
export { parseDuration, parseDurationList, parseSize, parseCount, parseBoolean } from './parse-values.js';
export { parseEncryptionKey } from './webhooks/encryption-key.js';
