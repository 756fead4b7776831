import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sign, verify } from './node.js';
import { asyncOutcome, syncOutcome } from './test-support/outcome.js';
import { SCENARIOS } from './test-support/scenarios.js';
import { ASCII_BODY, SECRET, T, VECTORS } from './test-support/vectors.js';
import { signAsync, verifyAsync } from './web.js';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

describe('signAsync', () => {
  it.each(VECTORS)('matches the fixed vector: $name', async ({ secret, body, header }) => {
    await expect(signAsync(secret, body, T)).resolves.toBe(header);
  });

  it('gives the same header as sign() for the same inputs', async () => {
    const body = Buffer.from(ASCII_BODY);
    expect(await signAsync([SECRET, 'whsec_b'], body, T)).toBe(sign([SECRET, 'whsec_b'], body, T));
  });

  it('rejects (never throws synchronously) on a programming error', async () => {
    const pending = signAsync([], ASCII_BODY, T);
    await expect(pending).rejects.toThrow(TypeError);
  });
});

describe('verifyAsync', () => {
  it.each(SCENARIOS)('$name → $expected, exactly like verify()', async (s) => {
    const args = [s.body as string, s.header as string, s.secrets as string, s.options] as const;
    const asyncResult = await asyncOutcome(() => verifyAsync(...args));
    expect(asyncResult).toBe(s.expected);
    expect(asyncResult).toBe(syncOutcome(() => verify(...args)));
  });

  it('resolves to the same value as verify()', async () => {
    const header = sign(SECRET, ASCII_BODY, T);
    expect(await verifyAsync(ASCII_BODY, header, SECRET, { now: T })).toEqual(verify(ASCII_BODY, header, SECRET, { now: T }));
  });

  it('explains what is missing when WebCrypto is not available', async () => {
    vi.stubGlobal('crypto', undefined);
    await expect(verifyAsync(ASCII_BODY, sign(SECRET, ASCII_BODY), SECRET)).rejects.toThrow(/WebCrypto/);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });
});

describe('the web build', () => {
  it('imports nothing from Node.js, directly or through its own modules (sources)', () => {
    expectNoNodeInGraph(join(packageDir, 'src', 'web.ts'), (specifier) => specifier.replace(/\.js$/, '.ts'));
  });

  it.skipIf(!existsSync(join(packageDir, 'dist', 'web.js')))('imports nothing from Node.js (dist, when built)', () => {
    expectNoNodeInGraph(join(packageDir, 'dist', 'web.js'), (specifier) => specifier);
  });

  it('is where the node build gets its async API from (so both share one error class)', () => {
    expect(readFileSync(join(packageDir, 'src', 'node.ts'), 'utf8')).toContain("export * from './web.js';");
  });
});

/** Follows every import and re-export from `entry`; all must be relative and Node-free. */
function expectNoNodeInGraph(entry: string, toFile: (specifier: string) => string): void {
  const seen = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    const specifiers = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');
    for (const specifier of specifiers) {
      expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\.?\//);
      pending.push(join(dirname(file), toFile(specifier)));
    }
    expect(code, `${file} uses require()`).not.toMatch(/\brequire\s*\(/);
    expect(code, `${file} uses Buffer`).not.toMatch(/\bBuffer\s*\.\s*\w/);
    expect(code, `${file} uses process`).not.toMatch(/\bprocess\s*\.\s*\w/);
  }
  expect(seen.size).toBeGreaterThanOrEqual(4); // web, header, errors, scheme
}
