import { describe, expect, it } from 'vitest';
import { applyDefaults } from './defaults.js';
import type { ServiceConfig } from './service-config.generated.js';

const minimal: ServiceConfig = { workspace: 'acme', project: 'site', framework: 'next', environments: { production: { branch: 'main' } } };

function deepFrozen<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFrozen(child);
    Object.freeze(value);
  }
  return value;
}

describe('applyDefaults', () => {
  it('fills in every default of the specification when pinpoints and auto are absent', () => {
    expect(applyDefaults(minimal)).toEqual({
      ...minimal,
      pinpoints: { production: false, staging: true, development: true, storeIp: true },
      auto: { timeout: 480 },
    });
  });

  it('keeps the values that are given and fills in the others', () => {
    const config: ServiceConfig = { ...minimal, pinpoints: { production: true, redact: ['.private'] }, auto: { timeout: 60 } };
    expect(applyDefaults(config)).toMatchObject({
      pinpoints: { production: true, staging: true, development: true, storeIp: true, redact: ['.private'] },
      auto: { timeout: 60 },
    });
  });

  it('does not let a property set to undefined hide its default', () => {
    expect(applyDefaults({ ...minimal, auto: { timeout: undefined } }).auto).toEqual({ timeout: 480 });
  });

  it('does not modify its input, and the result shares nothing with it', () => {
    const config = deepFrozen<ServiceConfig>({ ...minimal, forms: [{ slug: 'contact' }], pinpoints: { redact: ['.a'] } });
    const snapshot = structuredClone(config);
    const resolved = applyDefaults(config);
    expect(config).toEqual(snapshot);
    resolved.forms?.push({ slug: 'other' });
    resolved.pinpoints.redact?.push('.b');
    expect(config).toEqual(snapshot);
  });
});
