// What only the real `svc` binary does (packages/cli/bin/svc.js), against a real server: the
// other suites run the CLI's main() in their own process (the testkit's runSvcInProcess),
// which is the same code but for these last steps.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, selectBackend, serviceJson, startCliTestServer, svcBin, uniqueName, type CliTestServer } from '@svc/testkit';

const backend = await selectBackend();

describe.runIf(backend.available)(`the svc binary on ${backend.name}`, () => {
  let cli: CliTestServer;
  let directory: string;
  let workspace: string;

  beforeAll(async () => {
    cli = await startCliTestServer();
    workspace = uniqueName('binary');
    // Enough forms that `forms list --json` is far longer than a pipe holds at once.
    const forms = Array.from({ length: 150 }, (_, index) => ({ slug: `form-${index}`, name: `A form with a long enough name to fill the pipe, number ${index}`.repeat(4) }));
    directory = await createProject(cli, workspace, 'site');
    await writeFile(join(directory, 'service.json'), serviceJson(workspace, 'site', { forms }));
    expect((await cli.svc(['push'], { cwd: directory })).code).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await cli?.stop();
  });

  it('writes a long --json document whole to a pipe before it exits', async () => {
    const listed = await cli.svc(['forms', 'list', '--json'], { cwd: directory, process: true });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.length).toBeGreaterThan(64 * 1024);
    expect(listed.json<{ forms: unknown[] }>().forms).toHaveLength(150);
    expect(listed.stderr).toBe('');
  });

  it('exits with the code of the failure: 1 for one the user can fix, 2 for usage', async () => {
    const missing = await cli.svc(['forms', 'list', '--json', '--workspace', workspace, '--project', 'nope'], { process: true });
    expect([missing.code, missing.json()]).toEqual([1, expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'not_found' }) })]);
    const usage = await cli.svc(['forms', 'list', '--no-such-flag'], { cwd: directory, process: true });
    expect(usage.code).toBe(2);
  });

  it('ends quietly with 0 when its reader stops early', async () => {
    const child = spawn(process.execPath, [svcBin, 'forms', 'list'], { cwd: directory, env: { ...process.env, SVC_API_URL: cli.url, SVC_TOKEN: cli.adminToken, SVC_CONFIG_DIR: cli.configDir, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Read the first chunk, then close the pipe, as `svc forms list | head -1` does.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });
});
