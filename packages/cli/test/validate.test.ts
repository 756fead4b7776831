// Runs the real `svc` binary, built in packages/cli/dist: `npm test` builds first
// (`npm run build`); on its own, run `npx tsc -b tsconfig.build.json` from the root before.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '@svc/testkit';

const validConfig = `{
  "workspace": "acme",
  "project": "site",
  "framework": "next",
  "environments": { "production": { "branch": "main" } }
}
`;

const baseConfig = JSON.parse(validConfig) as object;

/** Two schema errors: /auto/timeout at 7:16 and the unknown property /extra at 9:3. */
const invalidConfig = `{
  "workspace": "acme",
  "project": "site",
  "framework": "next",
  "environments": { "production": { "branch": "main" } },
  "auto": {
    "timeout": 59
  },
  "extra": true
}
`;

/** A missing comma: the parser stops at "project", line 3, column 3. */
const brokenConfig = `{
  "workspace": "acme"
  "project": "site"
}
`;

let root: string;
/** A fresh directory under the test's temporary root, holding the given files. */
async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(root, 'project-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

/** Exactly one JSON document on stdout, and nothing else. */
function onlyDocument(stdout: string): unknown {
  expect(stdout.endsWith('\n')).toBe(true);
  expect(stdout.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(stdout);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-validate-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('svc validate', () => {
  it('checks ./service.json by default and says it is valid', async () => {
    const cwd = await project({ 'service.json': validConfig });
    expect(await runSvc(['validate'], { cwd })).toEqual({ code: 0, stdout: 'service.json is valid\n', stderr: '' });
  });

  it('checks the file given, named as given', async () => {
    const cwd = await project({ 'sites/blog/service.json': validConfig });
    expect(await runSvc(['validate', 'sites/blog/service.json'], { cwd })).toEqual({ code: 0, stdout: 'sites/blog/service.json is valid\n', stderr: '' });
  });

  it('prints {"ok":true} alone with --json when the file is valid', async () => {
    const cwd = await project({ 'service.json': validConfig });
    const { code, stdout, stderr } = await runSvc(['validate', '--json'], { cwd });
    expect(code).toBe(0);
    expect(onlyDocument(stdout)).toEqual({ ok: true });
    expect(stderr).toBe('');
  });

  it('lists schema errors like a compiler, with their line and column, then a summary on stderr, and exits 1', async () => {
    const cwd = await project({ 'service.json': invalidConfig });
    expect(await runSvc(['validate'], { cwd })).toEqual({
      code: 1,
      stdout: 'service.json:7:16 error /auto/timeout must be >= 60\nservice.json:9:3 error /extra unknown property "extra"\n',
      stderr: '2 errors in service.json\n',
    });
  });

  it('reports a JSON syntax error at its line and column, without a pointer', async () => {
    const cwd = await project({ 'service.json': brokenConfig });
    expect(await runSvc(['validate'], { cwd })).toEqual({
      code: 1,
      stdout: 'service.json:3:3 error expected a comma or closing brace\n',
      stderr: '1 error in service.json\n',
    });
  });

  it('prints every error as one JSON document with --json, nothing on stderr, and exits 1', async () => {
    const cwd = await project({ 'service.json': invalidConfig });
    const { code, stdout, stderr } = await runSvc(['validate', '--json'], { cwd });
    expect(code).toBe(1);
    expect(stderr).toBe('');
    expect(onlyDocument(stdout)).toEqual({
      ok: false,
      errors: [
        { pointer: '/auto/timeout', message: 'must be >= 60', line: 7, column: 16 },
        { pointer: '/extra', message: 'unknown property "extra"', line: 9, column: 3 },
      ],
    });
  });

  it('gives the syntax error position in --json output too', async () => {
    const cwd = await project({ 'service.json': brokenConfig });
    const { code, stdout } = await runSvc(['validate', '--json'], { cwd });
    expect(code).toBe(1);
    expect(onlyDocument(stdout)).toMatchObject({ ok: false, errors: [{ pointer: '', message: 'expected a comma or closing brace', line: 3, column: 3 }] });
  });

  it('reports a file nested thousands of levels deep as an error at the first level too deep, exit 1, never a crash', async () => {
    const depth = 5_000;
    const deepArrays = `{\n  "workspace": "acme",\n  "forms": ${'['.repeat(depth)}${']'.repeat(depth)}\n}\n`;
    const deepObjects = `{"workspace":"acme","pinpoints":{"redact":${'{"a/b":'.repeat(depth)}1${'}'.repeat(depth)}}}`;
    const cwd = await project({ 'service.json': deepArrays, 'objects.json': deepObjects });
    const human = await runSvc(['validate'], { cwd });
    expect(human).toEqual({
      code: 1,
      stdout: `service.json:3:${12 + 63} error /forms${'/0'.repeat(63)} is nested more than 64 levels deep; a service.json needs only a few\n`,
      stderr: '1 error in service.json\n',
    });
    const json = await runSvc(['validate', 'objects.json', '--json'], { cwd });
    expect(json.code).toBe(1);
    const column = '{"workspace":"acme","pinpoints":{"redact":'.length + '{"a/b":'.length * 62 + 1;
    expect(onlyDocument(json.stdout)).toEqual({
      ok: false,
      errors: [{ pointer: `/pinpoints/redact${'/a~1b'.repeat(62)}`, message: 'is nested more than 64 levels deep; a service.json needs only a few', line: 1, column }],
    });
  });

  it('checks a file of 1,000 forms and 1,000 hostnames', async () => {
    const forms = Array.from({ length: 1000 }, (_, index) => ({ slug: `form-${index}`, name: `Form ${index}` }));
    const hostnames = Array.from({ length: 1000 }, (_, index) => `site-${index}.example.com`);
    const cwd = await project({ 'service.json': JSON.stringify({ ...baseConfig, forms, domains: { production: hostnames } }, null, 2) });
    // Its time (node's start included) is the bench's `svc validate` row.
    const { code } = await runSvc(['validate'], { cwd });
    expect(code).toBe(0);
  });

  it('keeps a long error list whole through a pipe, as text and as JSON', async () => {
    // Some 10,000 errors, far more than a pipe holds: all of it must arrive before the process exits.
    const forms = Array.from({ length: 5000 }, (_, index) => ({ slug: `Form-${index}`, [`unknown-${index}`]: true }));
    const cwd = await project({ 'service.json': JSON.stringify({ ...baseConfig, forms }, null, 2) });
    const human = await runSvc(['validate'], { cwd });
    expect(human.code).toBe(1);
    expect(human.stdout.trimEnd().split('\n')).toHaveLength(10_000);
    expect(human.stderr).toBe('10000 errors in service.json\n');
    const json = await runSvc(['validate', '--json'], { cwd });
    expect(json.code).toBe(1);
    expect((onlyDocument(json.stdout) as { errors: unknown[] }).errors).toHaveLength(10_000);
  });

  it('exits 1 with file_not_found when ./service.json does not exist', async () => {
    const cwd = await project({});
    const human = await runSvc(['validate'], { cwd });
    expect(human.code).toBe(1);
    expect(human.stdout).toBe('');
    expect(human.stderr).toMatch(/^error service\.json does not exist/);
    const json = await runSvc(['validate', '--json'], { cwd });
    expect(json.code).toBe(1);
    expect(json.stderr).toBe('');
    expect(onlyDocument(json.stdout)).toEqual({ ok: false, error: { code: 'file_not_found', message: expect.stringContaining('service.json does not exist') } });
  });

  it('exits 1 with file_unreadable when the file is a directory', async () => {
    const cwd = await project({ 'config/.keep': '' });
    const { code, stdout } = await runSvc(['validate', 'config', '--json'], { cwd });
    expect(code).toBe(1);
    expect(onlyDocument(stdout)).toEqual({ ok: false, error: { code: 'file_unreadable', message: 'config is a directory, not a file' } });
  });

  it('exits 1 with file_unreadable for a file saved as UTF-16', async () => {
    const cwd = await project({});
    await writeFile(join(cwd, 'service.json'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(validConfig, 'utf16le')]));
    const { code, stdout } = await runSvc(['validate', '--json'], { cwd });
    expect(code).toBe(1);
    expect(onlyDocument(stdout)).toEqual({ ok: false, error: { code: 'file_unreadable', message: 'service.json is encoded as UTF-16; save it as UTF-8' } });
  });

  it('exits 2 on two file arguments', async () => {
    const cwd = await project({ 'a.json': validConfig, 'b.json': validConfig });
    const human = await runSvc(['validate', 'a.json', 'b.json'], { cwd });
    expect(human.code).toBe(2);
    expect(human.stdout).toBe('');
    expect(human.stderr).toContain('too many arguments');
    const json = await runSvc(['validate', 'a.json', 'b.json', '--json'], { cwd });
    expect(json.code).toBe(2);
    expect(onlyDocument(json.stdout)).toMatchObject({ ok: false, error: { code: 'usage' } });
  });

  it('exits 2 on an unknown option', async () => {
    const cwd = await project({ 'service.json': validConfig });
    const { code, stdout, stderr } = await runSvc(['validate', '--strict'], { cwd });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain("unknown option '--strict'");
  });
});
