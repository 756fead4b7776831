// Runs the real `svc` binary (packages/cli/dist) on a pseudo-terminal against a real `svc serve`: build first.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, createProject, runSvcOnTerminal, selectBackend, serviceJson, startCliTestServer, terminalAvailable } from '@svc/testkit';

const backend = await selectBackend();
if (!terminalAvailable) console.warn('\n  ⚠ skipping the prompt tests: util-linux `script` is not installed\n');

const enter = '\r';
const down = '\u001b[B';
const ctrlC = '\u0003';

describe.runIf(backend.available && terminalAvailable)(`svc prompts on a terminal, on ${backend.name}`, () => {
  let cli: CliTestServer;

  beforeAll(async () => {
    cli = await startCliTestServer();
  });
  afterAll(async () => {
    await cli?.stop();
  });

  const onTerminal = (args: readonly string[], cwd: string, answers: { question: string; keys: string }[]) =>
    runSvcOnTerminal(args, { cwd, env: { SVC_API_URL: cli.url, SVC_TOKEN: cli.adminToken, SVC_CONFIG_DIR: cli.configDir }, answers });

  it('svc init asks for what is missing, offering the detected framework and the git branch', async () => {
    const directory = await cli.directory({ 'astro.config.mjs': '', '.git/HEAD': 'ref: refs/heads/trunk\n' });
    const name = directory.split('/').at(-1)!;
    const result = await onTerminal(['init'], directory, [
      { question: 'Workspace', keys: `tty-a${enter}` },
      { question: 'Project name', keys: enter },
      { question: 'astro (detected)', keys: `${down}${enter}` },
      { question: 'Git branch of production', keys: `${'\u007f'.repeat(5)}develop${enter}` },
    ]);
    expect(result.code, result.screen).toBe(0);
    expect(result.screen).toMatch(/Git branch of production\s*\n[│\s]*trunk/);
    expect(result.screen).toContain(`Created project tty-a/${name} (and workspace tty-a).`);
    expect(JSON.parse(await readFile(join(directory, 'service.json'), 'utf8'))).toMatchObject({
      workspace: 'tty-a',
      project: name,
      framework: 'static',
      environments: { production: { branch: 'develop' } },
    });
  });

  it('svc init stops with cancelled, having changed nothing, when a question is cancelled', async () => {
    const directory = await cli.directory();
    const result = await onTerminal(['init', '--workspace', 'tty-cancel'], directory, [{ question: 'Project name', keys: ctrlC }]);
    expect(result.code).toBe(1);
    expect(result.screen).toContain('error cancelled; nothing was changed');
    await expect(stat(join(directory, 'service.json'))).rejects.toThrow();
    const link = await cli.svc(['link', '--workspace', 'tty-cancel', '--project', 'anything', '--json'], { cwd: directory });
    expect(link.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('svc init --yes asks nothing, even on a terminal', async () => {
    const directory = await cli.directory();
    const result = await onTerminal(['init', '--yes'], directory, []);
    expect(result.code).toBe(2);
    expect(result.screen).toContain('error pass --workspace: an admin token belongs to no workspace');
  });

  it('svc link lets you pick the project', async () => {
    await createProject(cli, 'tty-b', 'alpha');
    await createProject(cli, 'tty-b', 'beta', { forms: [{ slug: 'contact' }] });
    const directory = await cli.directory();
    const result = await onTerminal(['link', '--workspace', 'tty-b'], directory, [{ question: 'tty-b/beta', keys: `${down}${enter}` }]);
    expect(result.code, result.screen).toBe(0);
    expect(result.screen).toContain('Linked to tty-b/beta: wrote service.json.');
    expect(JSON.parse(await readFile(join(directory, 'service.json'), 'utf8'))).toMatchObject({ workspace: 'tty-b', project: 'beta', forms: [{ slug: 'contact' }] });
  });

  it('svc push --prune asks before deleting forms, and keeps them when the answer is no', async () => {
    const directory = await createProject(cli, 'tty-c', 'site', { forms: [{ slug: 'contact' }, { slug: 'old' }] });
    await writeFile(join(directory, 'service.json'), serviceJson('tty-c', 'site', { forms: [{ slug: 'contact' }] }));
    const declined = await onTerminal(['push', '--prune'], directory, [{ question: 'Delete old (0 submissions) from tty-c/site?', keys: enter }]);
    expect(declined.code).toBe(1);
    expect(declined.screen).toContain('error cancelled; nothing was changed');
    const forms = (await cli.svc(['forms', 'list', '--json'], { cwd: directory })).json<{ forms: { slug: string }[] }>().forms;
    expect(forms.map((form) => form.slug)).toEqual(['contact', 'old']);

    const accepted = await onTerminal(['push', '--prune'], directory, [{ question: 'Delete old (0 submissions)', keys: `y${enter}` }]);
    expect(accepted.code, accepted.screen).toBe(0);
    expect(accepted.screen).toContain('- deleted form old and its 0 submissions');
  });
});
