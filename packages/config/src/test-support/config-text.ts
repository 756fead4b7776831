import type { Position } from '../config-error.js';

/** A service.json that uses every field, all valid. */
export const fullConfig = {
  $schema: 'https://svc.example.com/schema/service.json',
  workspace: 'acme',
  project: 'site',
  framework: 'next',
  environments: { production: { branch: 'main' }, staging: { branch: 'staging' }, development: { branch: 'dev' } },
  forms: [{ slug: 'contact', name: 'Contact' }, { slug: 'newsletter' }],
  domains: { production: ['www.example.com', 'example.com'], staging: ['staging.example.com'], development: ['dev.example.com'] },
  pinpoints: { production: false, staging: true, development: true, redact: ['input[type=password]'], storeIp: true },
  auto: { timeout: 480 },
};

/** The smallest valid service.json: only the required fields. */
export const minimalConfig = {
  workspace: 'acme',
  project: 'site',
  framework: 'static',
  environments: { production: { branch: 'main' } },
};

/** Marks a property to delete in an edit. */
export const absent = Symbol('absent');

/** Changes to make to a config, by JSON Pointer: a new value, or `absent` to delete it. */
export type Edits = Readonly<Record<string, unknown>>;

/** The JSON text (two-space indent) of `base` with `edits` applied; `base` is not modified. */
export function configText(edits: Edits = {}, base: object = fullConfig): string {
  const config: unknown = structuredClone(base);
  for (const [pointer, value] of Object.entries(edits)) setAt(config, pointer, value);
  return JSON.stringify(config, null, 2);
}

function setAt(root: unknown, pointer: string, value: unknown): void {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
  const last = tokens.pop();
  if (last === undefined) throw new Error('cannot edit the root');
  let node = root as Record<string, unknown>;
  for (const token of tokens) {
    node[token] ??= {};
    node = node[token] as Record<string, unknown>;
  }
  if (value === absent) delete node[last];
  else node[last] = value;
}

/** The 1-based line and column where the `occurrence`-th (1-based) `needle` starts in `text`. */
export function positionIn(text: string, needle: string, occurrence = 1): Position {
  let offset = -1;
  for (let found = 0; found < occurrence; found++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset === -1) throw new Error(`${JSON.stringify(needle)} occurs fewer than ${occurrence} times`);
  }
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: before.length, column: (before.at(-1) ?? '').length + 1 };
}
