import { describe, expect, it } from 'vitest';
import type { ServiceConfig } from '@svc/config';
import { planConfig, sameJson, type CurrentProject } from './config-plan.js';

const base: ServiceConfig = { workspace: 'acme', project: 'site', framework: 'static', environments: { production: { branch: 'main' } } };

/** The state a project has once `config` was applied to it. */
function stateOf(config: ServiceConfig): CurrentProject {
  return {
    framework: config.framework,
    environments: JSON.parse(JSON.stringify(config.environments)),
    pinpoints: config.pinpoints ?? {},
    auto: config.auto ?? {},
    forms: (config.forms ?? []).map((form, position) => ({ id: `frm_${form.slug}`, slug: form.slug, name: form.name ?? null, position })),
    domains: (['production', 'staging', 'development'] as const).flatMap((environment) =>
      (config.domains?.[environment] ?? []).map((hostname, position) => ({ hostname: hostname.toLowerCase(), environment, position })),
    ),
  };
}

const full: ServiceConfig = {
  ...base,
  environments: { production: { branch: 'main' }, staging: { branch: 'develop' } },
  forms: [{ slug: 'contact', name: 'Contact' }, { slug: 'newsletter' }],
  domains: { production: ['WWW.Example.com', 'example.com'], staging: ['staging.example.com'] },
  pinpoints: { production: true, redact: ['.secret'] },
  auto: { timeout: 600 },
};

describe('planning a configuration', () => {
  it('plans nothing for the state a configuration produced, whatever the key order', () => {
    const reordered = JSON.parse(JSON.stringify({ auto: full.auto, pinpoints: { redact: ['.secret'], production: true }, ...full })) as ServiceConfig;
    for (const config of [base, full, reordered]) {
      const plan = planConfig(stateOf(config), config);
      expect(plan).toEqual({ changes: [], settings: {}, createForms: [], updateForms: [], missingForms: [], domains: null });
    }
  });

  it('creates new forms in file order and renames by slug, keeping the form', () => {
    const current = stateOf({ ...base, forms: [{ slug: 'contact', name: 'Contact' }] });
    const plan = planConfig(current, { ...base, forms: [{ slug: 'newsletter' }, { slug: 'contact', name: 'Write to us' }] });
    expect(plan.createForms).toEqual([{ slug: 'newsletter', name: null, position: 0 }]);
    expect(plan.updateForms).toEqual([{ id: 'frm_contact', name: 'Write to us', position: 1 }]);
    expect(plan.changes).toEqual([
      { action: 'created', target: 'forms.newsletter', summary: 'created form newsletter' },
      { action: 'updated', target: 'forms.contact', summary: 'renamed form contact: "Contact" → "Write to us"' },
    ]);
  });

  it('reports a change in the order of listed forms, and keeps forms missing from the file', () => {
    const current = stateOf({ ...base, forms: [{ slug: 'a' }, { slug: 'b' }, { slug: 'c' }] });
    const plan = planConfig(current, { ...base, forms: [{ slug: 'c' }, { slug: 'a' }] });
    expect(plan.changes).toEqual([{ action: 'updated', target: 'forms', summary: 'reordered forms: c, a' }]);
    expect(plan.updateForms).toEqual([
      { id: 'frm_c', name: null, position: 0 },
      { id: 'frm_a', name: null, position: 1 },
    ]);
    expect(plan.missingForms).toEqual([{ id: 'frm_b', slug: 'b' }]);
  });

  it('moves positions silently when a form is dropped without changing the order', () => {
    const plan = planConfig(stateOf({ ...base, forms: [{ slug: 'a' }, { slug: 'b' }, { slug: 'c' }] }), { ...base, forms: [{ slug: 'a' }, { slug: 'c' }] });
    expect(plan.changes).toEqual([]);
    expect(plan.updateForms).toEqual([{ id: 'frm_c', name: null, position: 1 }]);
    expect(plan.missingForms).toEqual([{ id: 'frm_b', slug: 'b' }]);
  });

  it('replaces hostnames lower-cased, per environment, only when one changes', () => {
    const current = stateOf({ ...base, domains: { production: ['www.example.com'] } });
    expect(planConfig(current, { ...base, domains: { production: ['WWW.EXAMPLE.COM'] } }).domains).toBeNull();
    const plan = planConfig(current, { ...base, domains: { production: ['www.example.com', 'Example.com'], development: ['dev.example.com'] } });
    expect(plan.domains).toEqual([
      { hostname: 'www.example.com', environment: 'production', position: 0 },
      { hostname: 'example.com', environment: 'production', position: 1 },
      { hostname: 'dev.example.com', environment: 'development', position: 0 },
    ]);
    expect(plan.changes).toEqual([
      { action: 'updated', target: 'domains.production', summary: 'domains.production: www.example.com, example.com' },
      { action: 'created', target: 'domains.development', summary: 'domains.development: dev.example.com' },
    ]);
    const removed = planConfig(current, base);
    expect(removed.domains).toEqual([]);
    expect(removed.changes).toEqual([{ action: 'deleted', target: 'domains.production', summary: 'domains.production: removed www.example.com' }]);
  });

  it('reports each setting whose value in effect changes, and stores the file as given', () => {
    const plan = planConfig(stateOf(full), {
      ...full,
      framework: 'astro',
      environments: { production: { branch: 'trunk' } },
      pinpoints: { production: true, staging: true },
      auto: {},
    });
    expect(plan.settings).toEqual({
      framework: 'astro',
      environments: '{"production":{"branch":"trunk"}}',
      pinpoints: '{"production":true,"staging":true}',
      auto: '{}',
    });
    expect(plan.changes).toEqual([
      { action: 'updated', target: 'framework', summary: 'framework: static → astro' },
      { action: 'updated', target: 'environments.production', summary: 'environments.production: branch main → branch trunk' },
      { action: 'deleted', target: 'environments.staging', summary: 'environments.staging: branch develop → none' },
      { action: 'deleted', target: 'pinpoints.redact', summary: 'pinpoints.redact: [".secret"] → (none)' },
      { action: 'updated', target: 'auto.timeout', summary: 'auto.timeout: 600 → 480 (stored; not enforced yet)' },
    ]);
  });

  it('reports no change when a default is only written out, or left out again', () => {
    const explicit: ServiceConfig = { ...base, pinpoints: { production: false, staging: true, development: true, storeIp: true }, auto: { timeout: 480 } };
    const written = planConfig(stateOf(base), explicit);
    expect(written.changes).toEqual([]);
    // Stored as the file gives it, so that `svc pull` writes back the same file.
    expect(written.settings).toEqual({ pinpoints: '{"production":false,"staging":true,"development":true,"storeIp":true}', auto: '{"timeout":480}' });
    expect(planConfig(stateOf(explicit), base).changes).toEqual([]);
  });

  it('reports a setting that leaves its default with both values', () => {
    const plan = planConfig(stateOf(base), { ...base, pinpoints: { production: true, redact: ['.card'] } });
    expect(plan.changes).toEqual([
      { action: 'updated', target: 'pinpoints.production', summary: 'pinpoints.production: false → true' },
      { action: 'created', target: 'pinpoints.redact', summary: 'pinpoints.redact: (none) → [".card"]' },
    ]);
  });
});

describe('comparing JSON values', () => {
  it('ignores the order of object keys but not of arrays', () => {
    expect(sameJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: undefined }, {})).toBe(true);
    expect(sameJson({ a: null }, {})).toBe(false);
  });
});
