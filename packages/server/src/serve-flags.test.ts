import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flagKey, resolveServeOptions, ServeFlagError, serveFlags } from './serve-flags.js';
import { serverOptions } from './server-options.js';

const docs = readFileSync(new URL('../../../docs/server.md', import.meta.url), 'utf8');

/** The rows of docs/server.md's flag table: flag → [env, default]. */
function documentedFlags(): Map<string, { env: string; defaultValue: string }> {
  const rows = new Map<string, { env: string; defaultValue: string }>();
  for (const line of docs.split('\n')) {
    const cells = /^\| `(--[a-z-]+)(?: \[[^`]*\])?` \| (.*?) \| (.*?) \| .* \|$/.exec(line);
    if (cells) rows.set(cells[1]!, { env: cells[2]!, defaultValue: cells[3]! });
  }
  return rows;
}

describe("svc serve's one table of options", () => {
  it('resolves to the server defaults when nothing is given', () => {
    expect(resolveServeOptions({}, {}, '/srv')).toEqual(serverOptions({ dataDir: '/srv/.svc' }));
  });

  it('takes a flag over its environment variable, and the variable over the default', () => {
    const options = resolveServeOptions({ port: '9000', trustProxy: true }, { SVC_PORT: '7000', SVC_HOST: '0.0.0.0', SVC_MAX_FILES: '3', SVC_ALLOW_PRIVATE_TARGETS: 'yes' }, '/srv');
    expect(options).toMatchObject({ port: 9000, host: '0.0.0.0', trustProxy: { kind: 'hops', hops: 1 }, allowPrivateTargets: true });
    expect(options.limits.files).toBe(3);
  });

  it('names the flag whose value is wrong', () => {
    expect(() => resolveServeOptions({ port: '70000' }, {}, '/srv')).toThrow(ServeFlagError);
    expect(() => resolveServeOptions({ baseUrl: 'ftp://example.com' }, {}, '/srv')).toThrow(/^--base-url: must be an http/);
    expect(() => resolveServeOptions({}, { SVC_ENCRYPTION_KEY: 'short' }, '/srv')).toThrow(/^SVC_ENCRYPTION_KEY: /);
  });

  it('refuses a bootstrap token weaker than the tokens the server makes', () => {
    expect(() => resolveServeOptions({}, { SVC_BOOTSTRAP_TOKEN: 'a' }, '/srv')).toThrow(/SVC_BOOTSTRAP_TOKEN: must be 32 to 512 printable characters/);
    expect(() => resolveServeOptions({}, { SVC_BOOTSTRAP_TOKEN: `${'x'.repeat(20)} ${'y'.repeat(20)}` }, '/srv')).toThrow(/SVC_BOOTSTRAP_TOKEN/);
    expect(resolveServeOptions({}, { SVC_BOOTSTRAP_TOKEN: 'f'.repeat(64) }, '/srv').bootstrapToken).toBe('f'.repeat(64));
  });

  it('has one key per flag', () => {
    const keys = serveFlags.map((option) => flagKey(option.flag));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is what docs/server.md documents: every flag with its environment variable and default', () => {
    const documented = documentedFlags();
    for (const option of serveFlags) {
      if (option.hidden) {
        expect(docs, option.flag).toContain(`\`${option.flag}\``);
        continue;
      }
      const row = documented.get(option.flag);
      expect(row, `${option.flag} is in the table of docs/server.md`).toBeDefined();
      expect(row!.env, option.flag).toBe(option.value ? `\`${option.env}\`` : `\`${option.env}=true\``);
      if (option.defaultValue !== undefined) expect(row!.defaultValue, option.flag).toBe(`\`${option.defaultValue}\``);
    }
    const known = new Set([...serveFlags.map((option) => option.flag), '--json']);
    for (const flag of documented.keys()) expect(known.has(flag), `${flag} in docs/server.md is a flag of svc serve`).toBe(true);
  });
});
