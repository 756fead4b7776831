// Runs the real `svc` binary (packages/cli/dist) where no server answers: build first.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, freePort, runSvc, withJson } from '@svc/testkit';

const serviceJson = `${JSON.stringify({ workspace: 'acme', project: 'site', framework: 'static', environments: { production: { branch: 'main' } } }, null, 2)}\n`;

let root: string;
let deadUrl: string;

/** A port that was free a moment ago: nothing listens there. */
const closedPort = freePort;

async function svc(args: readonly string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<CliResult> {
  return withJson(await runSvc(args, { cwd: options.cwd ?? root, env: { SVC_CONFIG_DIR: join(root, 'config'), ...options.env } }));
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-offline-'));
  await writeFile(join(root, 'service.json'), serviceJson);
  deadUrl = `http://127.0.0.1:${await closedPort()}`;
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('svc when the server is down', () => {
  const commands: readonly (readonly string[])[] = [
    ['forms', 'list'],
    ['push'],
    ['pull'],
    ['submissions', 'list', '--form', 'contact'],
    ['submissions', 'export', '--form', 'contact', '--output', 'export.csv'],
    ['webhooks', 'list'],
    ['deliveries', 'list'],
    ['tokens', 'list'],
    ['init', '--workspace', 'acme', '--yes', '--force'],
    ['link', '--workspace', 'acme', '--project', 'site', '--force'],
  ];
  for (const args of commands) {
    it(`svc ${args.join(' ')} exits 3 and says it cannot reach the server`, async () => {
      const env = { SVC_TOKEN: 'svc_anything', SVC_API_URL: deadUrl };
      const human = await svc(args, { env });
      expect(human.code).toBe(3);
      expect(human.stdout).toBe('');
      expect(human.stderr).toBe(`error cannot reach the server at ${deadUrl}: connection refused (is \`svc serve\` running there?)\n`);
      const json = await svc([...args, '--json'], { env });
      expect(json.code).toBe(3);
      expect(json.stderr).toBe('');
      expect(json.json()).toEqual({ ok: false, error: { code: 'network_error', message: expect.stringContaining(`cannot reach the server at ${deadUrl}`) } });
    });
  }

  it('svc login against a server that is down exits 3 and saves nothing', async () => {
    const configDir = join(root, 'login-config');
    const result = await svc(['login', '--token', 'svc_x', '--api', deadUrl], { env: { SVC_CONFIG_DIR: configDir } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`cannot reach the server at ${deadUrl}`);
    await expect(readFile(join(configDir, 'credentials.json'))).rejects.toThrow();
  });

  it('an unknown host is reported as such, with exit 3', async () => {
    const result = await svc(['forms', 'list', '--json'], { env: { SVC_TOKEN: 'svc_x', SVC_API_URL: 'http://svc.invalid' } });
    expect(result.code).toBe(3);
    expect(result.json()).toMatchObject({ error: { code: 'network_error', message: expect.stringMatching(/^cannot reach the server at http:\/\/svc\.invalid: /) } });
  });
});

describe('svc without credentials or project', () => {
  it('a command that needs the server exits 1 with not_logged_in when there are no credentials', async () => {
    const result = await svc(['forms', 'list', '--json']);
    expect(result.code).toBe(1);
    expect(result.json()).toEqual({
      ok: false,
      error: { code: 'not_logged_in', message: 'not logged in: run `svc login --token <token> --api <url>`, or set SVC_TOKEN and SVC_API_URL' },
    });
  });

  it('a saved token is never sent to another server named by SVC_API_URL', async () => {
    const configDir = join(root, 'saved');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(configDir, { recursive: true });
    await writeFile(join(configDir, 'credentials.json'), JSON.stringify({ apiUrl: 'http://127.0.0.1:1', token: 'svc_saved' }));
    const result = await svc(['forms', 'list', '--json'], { env: { SVC_CONFIG_DIR: configDir, SVC_API_URL: deadUrl } });
    expect(result.code).toBe(1);
    expect(result.json()).toMatchObject({ error: { code: 'not_logged_in', message: expect.stringContaining(`no token for ${deadUrl}`) } });
  });

  it('a project command outside a project exits 1 with not_linked', async () => {
    const empty = await mkdtemp(join(root, 'empty-'));
    const result = await svc(['forms', 'list', '--json'], { cwd: empty, env: { SVC_TOKEN: 'svc_x', SVC_API_URL: deadUrl } });
    expect(result.code).toBe(1);
    expect(result.json()).toMatchObject({ error: { code: 'not_linked', message: expect.stringContaining('there is no service.json here') } });
  });

  it('svc push outside a project exits 1 with file_not_found', async () => {
    const empty = await mkdtemp(join(root, 'empty-'));
    const result = await svc(['push', '--json'], { cwd: empty, env: { SVC_TOKEN: 'svc_x', SVC_API_URL: deadUrl } });
    expect(result.code).toBe(1);
    expect(result.json()).toMatchObject({ error: { code: 'file_not_found' } });
  });

  it('svc init refuses to overwrite service.json before contacting the server', async () => {
    const result = await svc(['init', '--workspace', 'acme', '--yes', '--json'], { env: { SVC_TOKEN: 'svc_x', SVC_API_URL: deadUrl } });
    expect(result.code).toBe(1);
    expect(result.json()).toEqual({ ok: false, error: { code: 'file_exists', message: 'service.json already exists here; pass --force to overwrite it' } });
    expect(await readFile(join(root, 'service.json'), 'utf8')).toBe(serviceJson);
  });

  it('svc link refuses to overwrite service.json too', async () => {
    const result = await svc(['link', '--workspace', 'acme', '--project', 'site']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error service.json already exists here; pass --force to overwrite it\n');
  });
});

describe('svc usage errors exit 2', () => {
  const env = { SVC_TOKEN: 'svc_x', SVC_API_URL: 'http://127.0.0.1:1' };
  const cases: readonly [string, readonly string[], string][] = [
    ['submissions list without --form', ['submissions', 'list'], 'pass the form with --form <slug> (`svc forms list` shows them)'],
    ['submissions list with a bad --limit', ['submissions', 'list', '--form', 'contact', '--limit', '500'], '--limit must be a whole number from 1 to 100'],
    ['export --json without --output', ['submissions', 'export', '--form', 'contact', '--json'], '--json needs --output FILE: stdout holds the JSON summary, not the export'],
    ['export with an unknown format', ['submissions', 'export', '--form', 'contact', '--format', 'xml'], "option '--format <format>' argument 'xml' is invalid. Allowed choices are csv, ndjson."],
    ['set-rate-limit with a bad limit', ['forms', 'set-rate-limit', 'contact', 'often'], '"often" is not a rate limit; write it as requests/window, e.g. 30/5m'],
    ['webhooks add without --events', ['webhooks', 'add', '--url', 'https://example.com/hook'], 'pass the events to send with --events, e.g. --events form.*'],
    ['deliveries list with a bad --status', ['deliveries', 'list', '--status', 'lost'], "option '--status <status>' argument 'lost' is invalid. Allowed choices are pending, succeeded, failed."],
    ['rotate-secret with a bad --grace', ['webhooks', 'rotate-secret', 'wh_x', '--grace', '30d'], '--grace may be at most 7d'],
    ['login without a token', ['login'], 'pass the token with --token'],
    ['an invalid SVC_API_URL', ['tokens', 'list'], 'SVC_API_URL must be an http:// or https:// URL, not "ftp://example.com"'],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const runEnv = name === 'an invalid SVC_API_URL' ? { ...env, SVC_API_URL: 'ftp://example.com' } : env;
      const result = await svc(args.includes('--json') ? args : [...args, '--json'], { env: runEnv });
      expect(result.code).toBe(2);
      expect(result.json()).toEqual({ ok: false, error: { code: 'usage', message } });
    });
  }
});

describe('svc --json for the version, help and a group without its subcommand', () => {
  it('prints the version as one JSON document', async () => {
    const result = await svc(['--version', '--json']);
    expect(result.code).toBe(0);
    expect(result.json()).toEqual({ ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) as unknown });
  });

  it('prints the help of svc, of a group and of a command as one JSON document each', async () => {
    const top = await svc(['--help', '--json']);
    expect(top.code).toBe(0);
    const topHelp = top.json<{ command: string; commands: { name: string }[] }>();
    expect(topHelp.command).toBe('svc');
    expect(topHelp.commands.map((command) => command.name)).toEqual(expect.arrayContaining(['serve', 'webhooks', 'open']));

    const group = (await svc(['webhooks', '--help', '--json'])).json<{ command: string; commands: { name: string }[] }>();
    expect(group.command).toBe('svc webhooks');
    expect(group.commands.map((command) => command.name)).toEqual(expect.arrayContaining(['add', 'list', 'remove']));

    const add = (await svc(['webhooks', 'add', '--help', '--json'])).json<{ usage: string; options: { flags: string }[] }>();
    expect(add.usage).toBe('svc webhooks add [options]');
    expect(add.options.map((option) => option.flags)).toEqual(expect.arrayContaining(['--url <url>', '--json']));
  });

  it('answers a group without its subcommand with one usage error naming the subcommands', async () => {
    const result = await svc(['webhooks', '--json']);
    expect(result.code).toBe(2);
    const document = result.json<{ ok: boolean; error: { code: string; message: string } }>();
    expect(document.ok).toBe(false);
    expect(document.error.code).toBe('usage');
    expect(document.error.message).toMatch(/^svc webhooks needs a subcommand: add, list/);
    expect(result.stdout).not.toContain('outputHelp');
  });
});
