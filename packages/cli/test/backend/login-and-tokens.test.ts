// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve`: build first.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, createProject, selectBackend, startCliTestServer } from '@svc/testkit';

const backend = await selectBackend();

describe.runIf(backend.available)(`svc login and svc tokens on ${backend.name}`, () => {
  let cli: CliTestServer;

  beforeAll(async () => {
    cli = await startCliTestServer();
  });
  afterAll(async () => {
    await cli?.stop();
  });

  it('login checks the token, then saves it 0600 under SVC_CONFIG_DIR without printing it', async () => {
    const configDir = join(await cli.directory(), 'config');
    const result = await cli.svc(['login', '--token', cli.adminToken, '--api', cli.url], { token: null, env: { SVC_API_URL: undefined, SVC_CONFIG_DIR: configDir } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Logged in to ${cli.url} with token "bootstrap" (admin: every workspace).`);
    expect(result.stdout + result.stderr).not.toContain(cli.adminToken);
    const file = join(configDir, 'credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ apiUrl: cli.url, token: cli.adminToken });

    // The saved credentials are used without SVC_TOKEN / SVC_API_URL.
    const tokens = await cli.svc(['tokens', 'list', '--json'], { token: null, env: { SVC_API_URL: undefined, SVC_CONFIG_DIR: configDir } });
    expect(tokens.code).toBe(0);
    expect(tokens.json<{ tokens: unknown[] }>().tokens.length).toBeGreaterThan(0);
  });

  it('login honours XDG_CONFIG_HOME and answers --json with the token, never its secret', async () => {
    const xdg = await cli.directory();
    const result = await cli.svc(['login', '--token', cli.adminToken, '--json'], { token: null, env: { SVC_CONFIG_DIR: undefined, XDG_CONFIG_HOME: xdg } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const document = result.json();
    expect(document).toEqual({
      ok: true,
      apiUrl: cli.url,
      token: { id: expect.stringMatching(/^tok_/), name: 'bootstrap', workspace: null, admin: true },
      credentialsFile: join(xdg, 'svc', 'credentials.json'),
    });
    expect(result.stdout).not.toContain(cli.adminToken);
  });

  it('login with a wrong token exits 1 with unauthorized and saves nothing', async () => {
    const configDir = join(await cli.directory(), 'config');
    const human = await cli.svc(['login', '--token', 'svc_wrong'], { token: null, env: { SVC_CONFIG_DIR: configDir } });
    expect(human.code).toBe(1);
    expect(human.stdout).toBe('');
    expect(human.stderr).toContain('refused the token: the token is unknown or revoked');
    const json = await cli.svc(['login', '--token', 'svc_wrong', '--json'], { token: null, env: { SVC_CONFIG_DIR: configDir } });
    expect(json.code).toBe(1);
    expect(json.json()).toEqual({ ok: false, error: { code: 'unauthorized', message: expect.stringContaining('refused the token') } });
    await expect(stat(join(configDir, 'credentials.json'))).rejects.toThrow();
  });

  it('login says what is wrong with an address: https:// to the plain-HTTP server, or not the service\'s base', async () => {
    const env = { SVC_CONFIG_DIR: join(await cli.directory(), 'config') };
    const https = await cli.svc(['login', '--token', cli.adminToken, '--api', cli.url.replace('http:', 'https:'), '--json'], { token: null, env });
    expect(https.code).toBe(3);
    expect(https.json()).toMatchObject({ error: { code: 'network_error', message: expect.stringContaining(`it answers plain HTTP, not HTTPS: use ${cli.url}`) } });
    for (const path of ['/settings', '/api', '/svc']) {
      const wrong = await cli.svc(['login', '--token', cli.adminToken, '--api', `${cli.url}${path}`], { token: null, env });
      expect(wrong.code, wrong.stderr).not.toBe(0);
      expect(wrong.stderr).toContain(`${cli.url}${path} is not the service's base address`);
      expect(wrong.stderr).toContain('give the address `svc serve` prints');
    }
  });

  it('login without --token and without a terminal is a usage error (exit 2)', async () => {
    const result = await cli.svc(['login', '--json'], { token: null });
    expect(result.code).toBe(2);
    expect(result.json()).toEqual({ ok: false, error: { code: 'usage', message: 'pass the token with --token' } });
  });

  it('any command with a wrong SVC_TOKEN exits 1 with unauthorized', async () => {
    const result = await cli.svc(['tokens', 'list', '--json'], { token: 'svc_not_a_token' });
    expect(result.code).toBe(1);
    expect(result.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
  });

  it('tokens create prints the secret alone on stdout, once; list never shows it', async () => {
    await createProject(cli, 'tok-a', 'site');
    const created = await cli.svc(['tokens', 'create', '--name', 'ci', '--workspace', 'tok-a']);
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^svc_[0-9a-z]{52}$/);
    expect(created.stderr).toMatch(/Created token for workspace tok-a "ci" \(tok_[0-9a-z]+\)\. It is shown only this once/);

    const list = await cli.svc(['tokens', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+SCOPE\s+CREATED\s+LAST USED\s+STATUS$/);
    expect(list.stdout).toMatch(/tok_\S+\s+ci\s+workspace tok-a\s+\S+\s+never\s+active/);
    expect(list.stdout).not.toContain(secret);
    const listJson = await cli.svc(['tokens', 'list', '--json']);
    expect(listJson.stdout).not.toContain(secret);

    // The new token works, and its use is recorded (off the request path, before the next command).
    const used = await cli.svc(['forms', 'list', '--workspace', 'tok-a', '--project', 'none', '--json'], { token: secret });
    expect(used.json()).toMatchObject({ error: { code: 'not_found' } });
    const after = await cli.svc(['tokens', 'list', '--json']);
    const mine = after.json<{ tokens: { name: string; lastUsedAt: string | null }[] }>().tokens.find((token) => token.name === 'ci');
    expect(mine?.lastUsedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
  });

  it('tokens create says its scope: --workspace (which must exist) or --admin, never neither nor both', async () => {
    const neither = await cli.svc(['tokens', 'create', '--name', 'forgot', '--json']);
    expect(neither.code).toBe(2);
    expect(neither.json()).toEqual({ ok: false, error: { code: 'usage', message: 'say what the token is for: --workspace W (one workspace) or --admin (every workspace)' } });
    const both = await cli.svc(['tokens', 'create', '--workspace', 'tok-a', '--admin', '--json']);
    expect([both.code, both.json<{ error: { code: string } }>().error.code]).toEqual([2, 'usage']);
    const typo = await cli.svc(['tokens', 'create', '--name', 'typo', '--workspace', 'tok-aa', '--json']);
    expect(typo.code).toBe(1);
    expect(typo.json()).toEqual({ ok: false, error: { code: 'not_found', message: 'no workspace "tok-aa": `svc init` creates one with its first project' } });
    // The CLI API holds the same rule for any client.
    const api = (body: unknown) => fetch(`${cli.url}/api/cli/tokens`, { method: 'POST', headers: { authorization: `Bearer ${cli.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const bare = await api({ name: 'bare' });
    expect(bare.status).toBe(422);
    expect(await bare.json()).toMatchObject({ ok: false, error: 'validation_failed' });
    expect((await api({ workspace: 'tok-aa' })).status).toBe(404);
    expect((await api({ workspace: 'tok-a', admin: true })).status).toBe(422);
    const listed = (await cli.svc(['tokens', 'list', '--json'])).json<{ tokens: { name: string }[] }>().tokens.map((token) => token.name);
    expect(listed).not.toContain('forgot');
    expect(listed).not.toContain('typo');
    expect(listed).not.toContain('bare');
  });

  it('tokens create --json returns the token and its secret', async () => {
    const result = await cli.svc(['tokens', 'create', '--admin', '--json']);
    expect(result.code).toBe(0);
    expect(result.json()).toEqual({
      ok: true,
      token: { id: expect.stringMatching(/^tok_/), name: 'admin token', workspace: null, createdAt: expect.any(String), lastUsedAt: null, revokedAt: null },
      secret: expect.stringMatching(/^svc_/),
    });
  });

  it('tokens revoke stops a token at once; revoking again changes nothing; unknown ids are not_found', async () => {
    const created = (await cli.svc(['tokens', 'create', '--name', 'short-lived', '--admin', '--json'])).json<{ token: { id: string }; secret: string }>();
    expect((await cli.svc(['tokens', 'list', '--json'], { token: created.secret })).code).toBe(0);

    const revoked = await cli.svc(['tokens', 'revoke', created.token.id]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(`Revoked token ${created.token.id} ("short-lived").\n`);
    const refused = await cli.svc(['tokens', 'list', '--json'], { token: created.secret });
    expect(refused.code).toBe(1);
    expect(refused.json()).toMatchObject({ error: { code: 'unauthorized' } });

    const again = await cli.svc(['tokens', 'revoke', created.token.id, '--json']);
    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ ok: true, token: { id: created.token.id, revokedAt: expect.any(String) } });

    const unknown = await cli.svc(['tokens', 'revoke', 'tok_unknown', '--json']);
    expect(unknown.code).toBe(1);
    expect(unknown.json()).toEqual({ ok: false, error: { code: 'not_found', message: 'no token "tok_unknown"' } });
  });

  it('the last working admin token cannot be revoked (conflict)', async () => {
    const list = (await cli.svc(['tokens', 'list', '--json'])).json<{ tokens: { id: string; name: string; workspace: string | null; revokedAt: string | null }[] }>();
    const admins = list.tokens.filter((token) => token.workspace === null && token.revokedAt === null);
    const bootstrap = admins.find((token) => token.name === 'bootstrap')!;
    for (const token of admins.filter((admin) => admin !== bootstrap)) expect((await cli.svc(['tokens', 'revoke', token.id])).code).toBe(0);
    const result = await cli.svc(['tokens', 'revoke', bootstrap.id, '--json']);
    expect(result.code).toBe(1);
    expect(result.json()).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining('last admin token') } });
  });

  it('tokens commands without an argument or with an unknown option are usage errors (exit 2)', async () => {
    const missing = await cli.svc(['tokens', 'revoke', '--json']);
    expect(missing.code).toBe(2);
    expect(missing.json()).toMatchObject({ ok: false, error: { code: 'usage' } });
    const unknown = await cli.svc(['tokens', 'create', '--colour', 'red']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--colour'");
  });
});
