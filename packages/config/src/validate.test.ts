import { describe, expect, it } from 'vitest';
import { absent, configText, fullConfig, minimalConfig, type Edits } from './test-support/config-text.js';
import { validate } from './validate.js';

const slugRule = 'must be 1 to 63 lowercase letters, digits and hyphens, starting with a letter or digit';
const enumRule = 'must be one of "next", "astro", "static", "unknown"';
const uriRule = 'must be an absolute URI, such as "https://svc.example.com/schema/service.json"';
const a = (count: number): string => 'a'.repeat(count);
/** Hostnames of 253 and 254 characters: three labels of 63, then one of 61 or 62. */
const hostname253 = [a(63), a(63), a(63), a(61)].join('.');
const hostname254 = [a(63), a(63), a(63), a(62)].join('.');

interface RuleCase {
  readonly it: string;
  /** Changes to the full valid config, by JSON Pointer; or `text` for the whole file. */
  readonly edits?: Edits;
  readonly base?: object;
  readonly text?: string;
  /** Expected [pointer, message] pairs; empty for a valid file. */
  readonly errors: readonly (readonly [string, string])[];
}

/** Every rule of service.json, each with valid and invalid cases, boundaries included. */
const cases: readonly RuleCase[] = [
  // The whole file
  { it: 'accepts a config that uses every field', errors: [] },
  { it: 'accepts a config with only the required fields', base: minimalConfig, errors: [] },
  { it: 'rejects a document that is an array rather than an object', text: '[]', errors: [['', 'must be an object, not an array']] },
  { it: 'rejects a document that is a string', text: '"acme"', errors: [['', 'must be an object, not a string']] },
  { it: 'reports an unknown top-level property', edits: { '/extra': 1 }, errors: [['/extra', 'unknown property "extra"']] },
  {
    it: 'reports every missing required top-level property',
    text: '{}',
    errors: [
      ['', 'missing required property "workspace"'],
      ['', 'missing required property "project"'],
      ['', 'missing required property "framework"'],
      ['', 'missing required property "environments"'],
    ],
  },

  // $schema
  { it: 'accepts an https $schema', edits: { '/$schema': 'https://svc.example.com/schema/service.json' }, errors: [] },
  { it: 'accepts a file: $schema', edits: { '/$schema': 'file:///home/me/service.schema.json' }, errors: [] },
  { it: 'rejects a $schema that is not a URI', edits: { '/$schema': 'not a uri' }, errors: [['/$schema', uriRule]] },
  { it: 'rejects a relative $schema path, which is not an absolute URI', edits: { '/$schema': './service.schema.json' }, errors: [['/$schema', uriRule]] },
  { it: 'rejects a $schema that is not a string', edits: { '/$schema': 7 }, errors: [['/$schema', 'must be a string, not the number 7']] },

  // workspace
  { it: 'accepts a one-character workspace slug', edits: { '/workspace': 'a' }, errors: [] },
  { it: 'accepts a workspace slug of 63 characters', edits: { '/workspace': a(63) }, errors: [] },
  { it: 'rejects a workspace slug of 64 characters', edits: { '/workspace': a(64) }, errors: [['/workspace', slugRule]] },
  { it: 'accepts a workspace slug that starts with a digit and holds hyphens', edits: { '/workspace': '0-acme-co' }, errors: [] },
  { it: 'reports an empty workspace as empty, once', edits: { '/workspace': '' }, errors: [['/workspace', 'must not be empty']] },
  { it: 'rejects a workspace slug with capitals', edits: { '/workspace': 'Acme' }, errors: [['/workspace', slugRule]] },
  { it: 'rejects a workspace slug that starts with a hyphen', edits: { '/workspace': '-acme' }, errors: [['/workspace', slugRule]] },
  { it: 'rejects a workspace slug with an underscore', edits: { '/workspace': 'acme_co' }, errors: [['/workspace', slugRule]] },
  { it: 'rejects a workspace that is not a string', edits: { '/workspace': 42 }, errors: [['/workspace', 'must be a string, not the number 42']] },
  { it: 'reports a missing workspace', edits: { '/workspace': absent }, errors: [['', 'missing required property "workspace"']] },

  // project
  { it: 'accepts any non-empty project name', edits: { '/project': 'Site (2026) ü' }, errors: [] },
  { it: 'rejects an empty project name', edits: { '/project': '' }, errors: [['/project', 'must not be empty']] },
  { it: 'rejects a project that is null', edits: { '/project': null }, errors: [['/project', 'must be a string, not null']] },
  { it: 'reports a missing project', edits: { '/project': absent }, errors: [['', 'missing required property "project"']] },

  // framework
  ...['next', 'astro', 'static', 'unknown'].map((framework) => ({ it: `accepts the framework "${framework}"`, edits: { '/framework': framework }, errors: [] })),
  { it: 'rejects a framework outside the list', edits: { '/framework': 'nuxt' }, errors: [['/framework', enumRule]] },
  { it: 'rejects a framework written with a capital', edits: { '/framework': 'Next' }, errors: [['/framework', enumRule]] },
  { it: 'rejects a framework that is not a string', edits: { '/framework': 1 }, errors: [['/framework', 'must be a string, not the number 1']] },
  { it: 'reports a missing framework', edits: { '/framework': absent }, errors: [['', 'missing required property "framework"']] },

  // environments
  { it: 'accepts production alone', edits: { '/environments': { production: { branch: 'main' } } }, errors: [] },
  { it: 'reports missing environments', edits: { '/environments': absent }, errors: [['', 'missing required property "environments"']] },
  { it: 'rejects environments that are an array', edits: { '/environments': [] }, errors: [['/environments', 'must be an object, not an array']] },
  { it: 'reports a missing production environment', edits: { '/environments/production': absent }, errors: [['/environments', 'missing required property "production"']] },
  { it: 'reports an unknown environment', edits: { '/environments/preview': { branch: 'p' } }, errors: [['/environments/preview', 'unknown property "preview"']] },
  ...(['production', 'staging', 'development'] as const).flatMap((environment) => [
    {
      it: `reports an unknown property in the ${environment} environment`,
      edits: { [`/environments/${environment}/extra`]: true },
      errors: [[`/environments/${environment}/extra`, 'unknown property "extra"']] as const,
    },
    {
      it: `reports a missing branch in the ${environment} environment`,
      edits: { [`/environments/${environment}/branch`]: absent },
      errors: [[`/environments/${environment}`, 'missing required property "branch"']] as const,
    },
    {
      it: `rejects an empty branch in the ${environment} environment`,
      edits: { [`/environments/${environment}/branch`]: '' },
      errors: [[`/environments/${environment}/branch`, 'must not be empty']] as const,
    },
  ]),
  { it: 'accepts a branch with slashes', edits: { '/environments/staging/branch': 'release/2026-11' }, errors: [] },
  { it: 'rejects an environment given as a plain string', edits: { '/environments/production': 'main' }, errors: [['/environments/production', 'must be an object, not a string']] },
  { it: 'rejects a branch that is not a string', edits: { '/environments/production/branch': 1 }, errors: [['/environments/production/branch', 'must be a string, not the number 1']] },

  // forms
  { it: 'accepts no forms', edits: { '/forms': [] }, errors: [] },
  { it: 'accepts a form without a name', edits: { '/forms': [{ slug: 'contact' }] }, errors: [] },
  { it: 'accepts a form slug of 63 characters', edits: { '/forms/0/slug': a(63) }, errors: [] },
  { it: 'rejects a form slug of 64 characters', edits: { '/forms/0/slug': a(64) }, errors: [['/forms/0/slug', slugRule]] },
  { it: 'rejects an empty form slug', edits: { '/forms/0/slug': '' }, errors: [['/forms/0/slug', 'must not be empty']] },
  { it: 'rejects a form slug with a space', edits: { '/forms/1/slug': 'news letter' }, errors: [['/forms/1/slug', slugRule]] },
  { it: 'reports a form without a slug', edits: { '/forms/0/slug': absent }, errors: [['/forms/0', 'missing required property "slug"']] },
  { it: 'reports an unknown property in a form', edits: { '/forms/1/id': 'abc' }, errors: [['/forms/1/id', 'unknown property "id"']] },
  { it: 'rejects a form name that is not a string', edits: { '/forms/0/name': 1 }, errors: [['/forms/0/name', 'must be a string, not the number 1']] },
  { it: 'rejects forms given as an object', edits: { '/forms': { contact: {} } }, errors: [['/forms', 'must be an array, not an object']] },
  { it: 'rejects a form given as a string', edits: { '/forms': ['contact'] }, errors: [['/forms/0', 'must be an object, not a string']] },
  {
    it: 'reports a form slug used twice at its second use',
    edits: { '/forms/1/slug': 'contact' },
    errors: [['/forms/1/slug', 'duplicate form slug "contact": first used at /forms/0/slug (line 19, column 15)']],
  },

  // domains
  { it: 'accepts domains without any environment', edits: { '/domains': {} }, errors: [] },
  { it: 'accepts a hostname of 253 characters', edits: { '/domains/production': [hostname253] }, errors: [] },
  {
    it: 'rejects a hostname of 254 characters',
    edits: { '/domains/production': [hostname254] },
    errors: [['/domains/production/0', 'is 254 characters long; a hostname has at most 253']],
  },
  { it: 'accepts a label of 63 characters', edits: { '/domains/production': [`${a(63)}.example.com`] }, errors: [] },
  {
    it: 'rejects a label of 64 characters',
    edits: { '/domains/production': [`${a(64)}.example.com`] },
    errors: [['/domains/production/0', `has a label of 64 characters ("${a(20)}…"); a label has at most 63`]],
  },
  {
    it: 'rejects a single-label hostname',
    edits: { '/domains/staging': ['localhost'] },
    errors: [['/domains/staging/0', 'must have at least two labels separated by dots, such as "www.example.com"']],
  },
  { it: 'rejects a label that starts with a hyphen', edits: { '/domains/production/0': '-www.example.com' }, errors: [['/domains/production/0', 'has a label that starts with a hyphen ("-www")']] },
  { it: 'rejects a label that ends with a hyphen', edits: { '/domains/production/0': 'www.example-.com' }, errors: [['/domains/production/0', 'has a label that ends with a hyphen ("example-")']] },
  { it: 'rejects an empty label between two dots', edits: { '/domains/production/0': 'www..example.com' }, errors: [['/domains/production/0', 'has an empty label (a leading, trailing or doubled dot)']] },
  { it: 'rejects a trailing dot', edits: { '/domains/production/0': 'example.com.' }, errors: [['/domains/production/0', 'has an empty label (a leading, trailing or doubled dot)']] },
  { it: 'rejects a leading dot', edits: { '/domains/development/0': '.example.com' }, errors: [['/domains/development/0', 'has an empty label (a leading, trailing or doubled dot)']] },
  { it: 'rejects an empty hostname', edits: { '/domains/production/0': '' }, errors: [['/domains/production/0', 'must not be empty']] },
  {
    it: 'rejects a label with an underscore',
    edits: { '/domains/production/0': 'my_site.example.com' },
    errors: [['/domains/production/0', 'has a label with characters other than letters, digits and hyphens ("my_site")']],
  },
  { it: 'accepts capitals, digits and hyphens inside labels', edits: { '/domains/production': ['WWW.Example-1.COM', 'xn--bcher-kva.example', '1.2.3.4'] }, errors: [] },
  { it: 'reports an unknown domains environment', edits: { '/domains/preview': ['p.example.com'] }, errors: [['/domains/preview', 'unknown property "preview"']] },
  { it: 'rejects hostnames given as a string', edits: { '/domains/production': 'www.example.com' }, errors: [['/domains/production', 'must be an array, not a string']] },
  { it: 'rejects a hostname that is not a string', edits: { '/domains/production/1': 80 }, errors: [['/domains/production/1', 'must be a string, not the number 80']] },
  { it: 'rejects domains given as an array', edits: { '/domains': [] }, errors: [['/domains', 'must be an object, not an array']] },
  {
    it: 'reports a hostname listed twice in one environment at its second listing',
    edits: { '/domains/production/1': 'www.example.com' },
    errors: [['/domains/production/1', 'duplicate hostname "www.example.com": first listed at /domains/production/0 (line 28, column 7)']],
  },
  {
    it: 'reports a hostname listed in two environments, whatever its case',
    edits: { '/domains/staging/0': 'Example.COM' },
    errors: [
      ['/domains/staging/0', 'duplicate hostname "Example.COM": first listed at /domains/production/1 (line 29, column 7) (as "example.com"; hostnames are case-insensitive)'],
    ],
  },

  // pinpoints
  { it: 'accepts empty pinpoints settings', edits: { '/pinpoints': {} }, errors: [] },
  { it: 'accepts every pinpoints switch turned the other way', edits: { '/pinpoints': { production: true, staging: false, development: false, storeIp: false } }, errors: [] },
  { it: 'accepts an empty redact list', edits: { '/pinpoints/redact': [] }, errors: [] },
  { it: 'rejects an empty redact selector', edits: { '/pinpoints/redact': ['.private', ''] }, errors: [['/pinpoints/redact/1', 'must not be empty']] },
  { it: 'rejects a redact selector that is not a string', edits: { '/pinpoints/redact': [1] }, errors: [['/pinpoints/redact/0', 'must be a string, not the number 1']] },
  { it: 'rejects a redact list given as a string', edits: { '/pinpoints/redact': '.private' }, errors: [['/pinpoints/redact', 'must be an array, not a string']] },
  ...(['production', 'staging', 'development', 'storeIp'] as const).map((name) => ({
    it: `rejects a pinpoints ${name} switch that is not a boolean`,
    edits: { [`/pinpoints/${name}`]: 'yes' },
    errors: [[`/pinpoints/${name}`, 'must be a boolean, not a string']] as const,
  })),
  { it: 'reports an unknown pinpoints property', edits: { '/pinpoints/enabled': true }, errors: [['/pinpoints/enabled', 'unknown property "enabled"']] },
  { it: 'rejects pinpoints given as a boolean', edits: { '/pinpoints': true }, errors: [['/pinpoints', 'must be an object, not true']] },

  // auto
  { it: 'accepts empty auto settings', edits: { '/auto': {} }, errors: [] },
  { it: 'accepts a timeout of 60, the minimum', edits: { '/auto/timeout': 60 }, errors: [] },
  { it: 'accepts a timeout of 1800, the maximum', edits: { '/auto/timeout': 1800 }, errors: [] },
  { it: 'reports a timeout of 59 as below the minimum', edits: { '/auto/timeout': 59 }, errors: [['/auto/timeout', 'must be >= 60']] },
  { it: 'reports a timeout of 1801 as above the maximum', edits: { '/auto/timeout': 1801 }, errors: [['/auto/timeout', 'must be <= 1800']] },
  { it: 'rejects a timeout with a fraction', edits: { '/auto/timeout': 480.5 }, errors: [['/auto/timeout', 'must be an integer, not 480.5']] },
  { it: 'rejects a timeout given as a string', edits: { '/auto/timeout': '480' }, errors: [['/auto/timeout', 'must be an integer, not a string']] },
  { it: 'reports an unknown auto property', edits: { '/auto/retries': 3 }, errors: [['/auto/retries', 'unknown property "retries"']] },
  { it: 'rejects auto given as a number', edits: { '/auto': 480 }, errors: [['/auto', 'must be an object, not the number 480']] },
  {
    it: 'reports both rules a timeout of 59.5 breaks',
    edits: { '/auto/timeout': 59.5 },
    errors: [
      ['/auto/timeout', 'must be an integer, not 59.5'],
      ['/auto/timeout', 'must be >= 60'],
    ],
  },
];

describe('validate: the rules of service.json', () => {
  it.each(cases)('$it', (rule) => {
    const text = rule.text ?? configText(rule.edits, rule.base);
    const result = validate(text);
    const errors = result.errors.map((error) => [error.pointer, error.message]);
    expect(errors).toEqual(rule.errors);
    expect(result.ok).toBe(rule.errors.length === 0);
  });

  it('builds the boundary hostnames to their exact lengths', () => {
    expect([hostname253.length, hostname254.length]).toEqual([253, 254]);
  });

  it('returns the parsed config when the file is valid', () => {
    const result = validate(configText());
    expect(result).toEqual({ ok: true, config: fullConfig, errors: [] });
  });

  it('accepts a timeout written as 60.0, which JSON reads as the integer 60', () => {
    expect(validate(configText({}, minimalConfig).replace(/}\s*$/, ', "auto": { "timeout": 60.0 } }')).ok).toBe(true);
  });
});
