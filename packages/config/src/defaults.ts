import { serviceSchema } from './schema.js';
import type { Auto, Pinpoints, ServiceConfig } from './service-config.generated.js';

/** Pinpoints settings with every default applied; `redact` has no default. */
export type ResolvedPinpoints = Required<Omit<Pinpoints, 'redact'>> & Pick<Pinpoints, 'redact'>;

/** A service.json with its defaults applied: `pinpoints` and `auto` are always complete. */
export interface ResolvedServiceConfig extends Omit<ServiceConfig, 'pinpoints' | 'auto'> {
  pinpoints: ResolvedPinpoints;
  auto: Required<Auto>;
}

interface SectionSchema {
  properties: Record<string, { default?: unknown } | undefined>;
}

/** Defaults are read from the schema, the single source of truth, once. */
const sections = (serviceSchema as unknown as { properties: Record<'pinpoints' | 'auto', SectionSchema> }).properties;

function schemaDefault<T extends 'boolean' | 'number'>(section: 'pinpoints' | 'auto', property: string, type: T): T extends 'boolean' ? boolean : number {
  const value = sections[section].properties[property]?.default;
  if (typeof value !== type) throw new Error(`service.schema.json: ${section}.${property} has no ${type} default`);
  return value as T extends 'boolean' ? boolean : number;
}

const pinpointsDefaults: Required<Omit<Pinpoints, 'redact'>> = {
  production: schemaDefault('pinpoints', 'production', 'boolean'),
  staging: schemaDefault('pinpoints', 'staging', 'boolean'),
  development: schemaDefault('pinpoints', 'development', 'boolean'),
  storeIp: schemaDefault('pinpoints', 'storeIp', 'boolean'),
};

const autoDefaults: Required<Auto> = {
  timeout: schemaDefault('auto', 'timeout', 'number'),
};

/**
 * A copy of `config` with the schema's defaults filled in. The input is not modified and
 * shares nothing with the result.
 */
export function applyDefaults(config: ServiceConfig): ResolvedServiceConfig {
  const copy = structuredClone(config);
  return {
    ...copy,
    pinpoints: { ...pinpointsDefaults, ...definedOnly(copy.pinpoints) },
    auto: { ...autoDefaults, ...definedOnly(copy.auto) },
  };
}

/** Drops properties set to undefined, so that they cannot hide a default. */
function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  if (value === undefined) return {};
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
