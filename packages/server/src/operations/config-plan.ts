import { applyDefaults, type ServiceConfig } from '@svc/config';
import type { ConfigChange } from '@svc/protocol/api';
import type { DomainEntry } from '../store/queries/domains.js';

export const environmentNames = ['production', 'staging', 'development'] as const;
export const pinpointsKeys = ['production', 'staging', 'development', 'redact', 'storeIp'] as const;
export const autoKeys = ['timeout'] as const;

/** What a project has on the server, as far as service.json describes it. */
export interface CurrentProject {
  readonly framework: string;
  /** Parsed JSON of the stored sections, as they were given. */
  readonly environments: unknown;
  readonly pinpoints: unknown;
  readonly auto: unknown;
  readonly forms: readonly { id: string; slug: string; name: string | null; position: number }[];
  readonly domains: readonly DomainEntry[];
}

/** The writes that make a project match a configuration, and how to report them. */
export interface ConfigPlan {
  /** Everything that changes, in service.json order; form deletions are added when done. */
  readonly changes: ConfigChange[];
  /** Project columns to write (JSON text for the sections). */
  readonly settings: Partial<{ framework: string; environments: string; pinpoints: string; auto: string }>;
  readonly createForms: { slug: string; name: string | null; position: number }[];
  /** Existing forms whose name or position changes. */
  readonly updateForms: { id: string; name: string | null; position: number }[];
  /** Forms on the server that the configuration does not list. */
  readonly missingForms: { id: string; slug: string }[];
  /** Every hostname of the project when they change (lower-cased), else null. */
  readonly domains: DomainEntry[] | null;
}

/**
 * Compares a project with a configuration. Pure: the same inputs always give the same plan,
 * and a configuration compared with the state it produced gives no change at all.
 * Forms are matched by slug, so renaming keeps a form's endpoint id; hostnames are compared
 * lower-cased, as DNS compares them.
 */
export function planConfig(current: CurrentProject, desired: ServiceConfig): ConfigPlan {
  const changes: ConfigChange[] = [];
  const settings: { -readonly [K in keyof ConfigPlan['settings']]: string } = {};

  if (current.framework !== desired.framework) {
    settings.framework = desired.framework;
    changes.push({ action: 'updated', target: 'framework', summary: `framework: ${current.framework} → ${desired.framework}` });
  }

  const environments = desired.environments as unknown as Record<string, unknown>;
  if (!sameJson(current.environments, environments)) {
    settings.environments = JSON.stringify(environments);
    changes.push(...sectionChanges('environments', environmentNames, asRecord(current.environments), environments, describeEnvironment));
  }

  const forms = planForms(current.forms, desired.forms ?? []);
  changes.push(...forms.changes);

  const domains = planDomains(current.domains, desired);
  changes.push(...domains.changes);

  // The sections are stored as the file gives them (so `svc pull` writes back the same file),
  // but only a change of what is in effect is reported: `production: false` written out
  // where it was the default changes nothing.
  const effectiveBefore = applyDefaults({ ...desired, pinpoints: asRecord(current.pinpoints), auto: asRecord(current.auto) });
  const effectiveAfter = applyDefaults(desired);
  const pinpoints = (desired.pinpoints ?? {}) as Record<string, unknown>;
  if (!sameJson(current.pinpoints, pinpoints)) {
    settings.pinpoints = JSON.stringify(pinpoints);
    changes.push(...sectionChanges('pinpoints', pinpointsKeys, effectiveBefore.pinpoints, effectiveAfter.pinpoints, describeValue));
  }
  const auto = (desired.auto ?? {}) as Record<string, unknown>;
  if (!sameJson(current.auto, auto)) {
    settings.auto = JSON.stringify(auto);
    // Validated and stored, enforced by nothing yet (docs/configuration.md#auto): said where it shows.
    const reserved = sectionChanges('auto', autoKeys, effectiveBefore.auto, effectiveAfter.auto, describeValue);
    changes.push(...reserved.map((change) => ({ ...change, summary: `${change.summary} (stored; not enforced yet)` })));
  }

  return {
    changes,
    settings,
    createForms: forms.create,
    updateForms: forms.update,
    missingForms: forms.missing,
    domains: domains.entries,
  };
}

function planForms(current: CurrentProject['forms'], desired: NonNullable<ServiceConfig['forms']>) {
  const bySlug = new Map(current.map((form) => [form.slug, form]));
  const listed = new Set(desired.map((form) => form.slug));
  const changes: ConfigChange[] = [];
  const create: ConfigPlan['createForms'] = [];
  const update: ConfigPlan['updateForms'] = [];

  desired.forEach((form, position) => {
    const name = form.name ?? null;
    const existing = bySlug.get(form.slug);
    if (!existing) {
      create.push({ slug: form.slug, name, position });
      changes.push({ action: 'created', target: `forms.${form.slug}`, summary: `created form ${form.slug}${name === null ? '' : ` (${JSON.stringify(name)})`}` });
      return;
    }
    if (existing.name !== name) {
      changes.push({
        action: 'updated',
        target: `forms.${form.slug}`,
        summary: `renamed form ${form.slug}: ${describeName(existing.name)} → ${describeName(name)}`,
      });
    }
    if (existing.name !== name || existing.position !== position) update.push({ id: existing.id, name, position });
  });

  // Positions follow the file; only a change in the order of listed forms is worth reporting.
  const before = [...current].filter((form) => listed.has(form.slug)).map((form) => form.slug);
  const after = desired.map((form) => form.slug).filter((slug) => bySlug.has(slug));
  if (before.join('\u0000') !== after.join('\u0000')) {
    changes.push({ action: 'updated', target: 'forms', summary: `reordered forms: ${after.join(', ')}` });
  }

  const missing = current.filter((form) => !listed.has(form.slug)).map(({ id, slug }) => ({ id, slug }));
  return { changes, create, update, missing };
}

function planDomains(current: readonly DomainEntry[], desired: ServiceConfig) {
  const entries: DomainEntry[] = [];
  const changes: ConfigChange[] = [];
  for (const environment of environmentNames) {
    const wanted = (desired.domains?.[environment] ?? []).map((hostname) => hostname.toLowerCase());
    const had = current
      .filter((entry) => entry.environment === environment)
      .sort((a, b) => a.position - b.position)
      .map((entry) => entry.hostname);
    wanted.forEach((hostname, position) => entries.push({ hostname, environment, position }));
    if (had.join(' ') === wanted.join(' ')) continue;
    const action = had.length === 0 ? 'created' : wanted.length === 0 ? 'deleted' : 'updated';
    const summary = wanted.length === 0 ? `domains.${environment}: removed ${had.join(', ')}` : `domains.${environment}: ${wanted.join(', ')}`;
    changes.push({ action, target: `domains.${environment}`, summary });
  }
  return { changes, entries: changes.length > 0 ? entries : null };
}

/** One change per key of a section (`pinpoints.production`, `environments.staging`). */
function sectionChanges(
  section: string,
  keys: readonly string[],
  before: object,
  after: object,
  describe: (value: unknown) => string,
): ConfigChange[] {
  const ordered = [...keys, ...Object.keys({ ...before, ...after }).filter((key) => !keys.includes(key)).sort()];
  const changes: ConfigChange[] = [];
  for (const key of ordered) {
    const was = (before as Record<string, unknown>)[key];
    const now = (after as Record<string, unknown>)[key];
    if (sameJson(was, now)) continue;
    const target = `${section}.${key}`;
    const action = was === undefined ? 'created' : now === undefined ? 'deleted' : 'updated';
    changes.push({ action, target, summary: `${target}: ${describe(was)} → ${describe(now)}` });
  }
  return changes;
}

function describeEnvironment(value: unknown): string {
  const branch = asRecord(value)['branch'];
  return typeof branch === 'string' ? `branch ${branch}` : 'none';
}

function describeValue(value: unknown): string {
  return value === undefined ? '(none)' : JSON.stringify(value);
}

function describeName(name: string | null): string {
  return name === null ? '(no name)' : JSON.stringify(name);
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Equal as JSON values, whatever the order of object keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
