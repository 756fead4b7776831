// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve`: build first.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, createProject, postJson, selectBackend, serviceJson, startCliTestServer } from '@svc/testkit';

const backend = await selectBackend();

interface FormInfo {
  slug: string;
  name: string | null;
  endpointId: string;
  url: string;
}

describe.runIf(backend.available)(`svc init, link, push and pull on ${backend.name}`, () => {
  let cli: CliTestServer;

  beforeAll(async () => {
    cli = await startCliTestServer();
  });
  afterAll(async () => {
    await cli?.stop();
  });

  const readConfig = async (directory: string): Promise<string> => readFile(join(directory, 'service.json'), 'utf8');

  describe('svc init', () => {
    it('creates the workspace and project and writes service.json with $schema, framework and branch detected', async () => {
      const directory = await cli.directory({ 'next.config.mjs': 'export default {};\n', '.git/HEAD': 'ref: refs/heads/trunk\n' });
      const result = await cli.svc(['init', '--workspace', 'init-a', '--project', 'site'], { cwd: directory });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(
        [
          'Created project init-a/site (and workspace init-a).',
          'Wrote service.json (framework next, production branch trunk).',
          'Next: add a form to service.json, e.g. "forms": [{ "slug": "contact", "name": "Contact" }], then run `svc push`.',
          '',
        ].join('\n'),
      );
      expect(await readConfig(directory)).toBe(
        `${JSON.stringify(
          {
            $schema: `${cli.url}/schema/service.json`,
            workspace: 'init-a',
            project: 'site',
            framework: 'next',
            environments: { production: { branch: 'trunk' } },
          },
          null,
          2,
        )}\n`,
      );
      const validate = await cli.svc(['validate'], { cwd: directory });
      expect(validate.code).toBe(0);
    });

    it('detects astro, static and unknown, and falls back to main outside git', async () => {
      const cases: [Record<string, string>, string][] = [
        [{ 'astro.config.ts': '' }, 'astro'],
        [{ 'index.html': '<!doctype html>' }, 'static'],
        [{ 'README.md': '' }, 'unknown'],
      ];
      for (const [files, framework] of cases) {
        const directory = await cli.directory(files);
        const result = await cli.svc(['init', '--workspace', 'init-b', '--project', framework, '--json'], { cwd: directory });
        expect(result.code).toBe(0);
        expect(result.json()).toMatchObject({
          ok: true,
          project: { workspace: 'init-b', project: framework, framework },
          config: { framework, environments: { production: { branch: expect.any(String) } } },
        });
      }
    });

    it('takes the project name from the directory and every value from flags', async () => {
      const directory = await cli.directory();
      const result = await cli.svc(['init', '--workspace', 'init-c', '--framework', 'astro', '--branch', 'release', '--yes', '--json'], { cwd: directory });
      expect(result.code).toBe(0);
      const document = result.json<{ project: { project: string }; workspaceCreated: boolean; file: string; config: Record<string, unknown> }>();
      expect(document.project.project).toBe(directory.split('/').at(-1));
      expect(document.workspaceCreated).toBe(true);
      expect(document.file).toBe(join(directory, 'service.json'));
      expect(JSON.parse(await readConfig(directory))).toEqual(document.config);
      expect(document.config).toMatchObject({ framework: 'astro', environments: { production: { branch: 'release' } } });
    });

    it('refuses an existing project (conflict) and an existing file without --force', async () => {
      const directory = await createProject(cli, 'init-d', 'site');
      const again = await cli.svc(['init', '--workspace', 'init-d', '--project', 'site', '--force', '--json'], { cwd: directory });
      expect(again.code).toBe(1);
      expect(again.json()).toEqual({ ok: false, error: { code: 'conflict', message: 'project "site" already exists in workspace "init-d"; run `svc link` to use it' } });
      const file = await cli.svc(['init', '--workspace', 'init-d', '--project', 'other'], { cwd: directory });
      expect(file.code).toBe(1);
      expect(file.stderr).toBe('error service.json already exists here; pass --force to overwrite it\n');
    });

    it('with --force replaces service.json', async () => {
      const directory = await cli.directory({ 'service.json': '{ "old": true }\n' });
      const result = await cli.svc(['init', '--workspace', 'init-e', '--project', 'site', '--force', '--json'], { cwd: directory });
      expect(result.code).toBe(0);
      expect(JSON.parse(await readConfig(directory))).toMatchObject({ workspace: 'init-e', project: 'site' });
    });

    it('rejects an invalid workspace slug (exit 1) and, without a terminal, an admin token with no --workspace (exit 2)', async () => {
      const directory = await cli.directory();
      const invalid = await cli.svc(['init', '--workspace', 'Not A Slug', '--project', 'site', '--json'], { cwd: directory });
      expect(invalid.code).toBe(1);
      expect(invalid.json()).toMatchObject({ ok: false, error: { code: 'validation_failed', message: expect.stringContaining('workspace must be') } });
      const missing = await cli.svc(['init', '--project', 'site', '--json'], { cwd: directory });
      expect(missing.code).toBe(2);
      expect(missing.json()).toEqual({ ok: false, error: { code: 'usage', message: 'pass --workspace: an admin token belongs to no workspace' } });
    });
  });

  describe('svc link', () => {
    it('writes service.json from the project on the server', async () => {
      await createProject(cli, 'link-a', 'site', { forms: [{ slug: 'contact', name: 'Contact' }], domains: { production: ['www.link-a.example'] } });
      const directory = await cli.directory();
      const result = await cli.svc(['link', '--workspace', 'link-a', '--project', 'site'], { cwd: directory });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('Linked to link-a/site: wrote service.json.\n');
      expect(JSON.parse(await readConfig(directory))).toEqual({
        $schema: `${cli.url}/schema/service.json`,
        workspace: 'link-a',
        project: 'site',
        framework: 'static',
        environments: { production: { branch: 'main' } },
        forms: [{ slug: 'contact', name: 'Contact' }],
        domains: { production: ['www.link-a.example'] },
      });
    });

    it('answers not_found for an unknown project, and usage without a terminal when the project is not named', async () => {
      const directory = await cli.directory();
      const unknown = await cli.svc(['link', '--workspace', 'link-none', '--project', 'site', '--json'], { cwd: directory });
      expect(unknown.code).toBe(1);
      expect(unknown.json()).toEqual({ ok: false, error: { code: 'not_found', message: 'no workspace "link-none"' } });
      const unnamed = await cli.svc(['link', '--json'], { cwd: directory });
      expect(unnamed.code).toBe(2);
      expect(unnamed.json()).toMatchObject({ error: { code: 'usage' } });
    });
  });

  describe('svc push', () => {
    it('creates forms and prints each slug, endpoint id and URL; the URL takes submissions', async () => {
      const directory = await createProject(cli, 'push-a', 'site');
      await writeFile(join(directory, 'service.json'), serviceJson('push-a', 'site', { forms: [{ slug: 'contact', name: 'Contact' }, { slug: 'newsletter' }] }));
      const result = await cli.svc(['push'], { cwd: directory });
      expect(result.code).toBe(0);
      const lines = result.stdout.split('\n');
      expect(lines.slice(0, 4)).toEqual(['Applied service.json to push-a/site:', '  + created form contact ("Contact")', '  + created form newsletter', '']);
      expect(lines[4]).toMatch(/^SLUG\s+NAME\s+ENDPOINT ID\s+URL\s+RATE LIMIT$/);
      const contact = /^contact\s+Contact\s+([0-9a-z]{24})\s+(\S+)\s+default$/.exec(lines[5]!);
      expect(contact?.[2]).toBe(`${cli.url}/api/f/${contact?.[1]}`);
      expect(lines[6]).toMatch(new RegExp(`^newsletter\\s+[0-9a-z]{24}\\s+${cli.url}/api/f/[0-9a-z]{24}\\s+default$`));
      const posted = await postJson(contact![2]!, { email: 'ada@example.com' });
      expect(posted.status).toBe(200);
    });

    it('changes nothing when the same file is applied twice, and says so', async () => {
      const directory = await createProject(cli, 'push-b', 'site', {
        forms: [{ slug: 'contact' }],
        domains: { production: ['www.push-b.example'], staging: ['staging.push-b.example'] },
        pinpoints: { production: true, redact: ['.secret'] },
        auto: { timeout: 900 },
      });
      const first = await cli.svc(['push', '--json'], { cwd: directory });
      expect(first.code).toBe(0);
      expect(first.json()).toMatchObject({ ok: true, changed: false, changes: [], keptForms: [], prunedForms: [] });
      // Where the widget shows, defaults applied: staging and development by default, production as the file says.
      expect(first.json()).toMatchObject({ pinpoints: { enabled: { production: true, staging: true, development: true } } });
      const human = await cli.svc(['push'], { cwd: directory });
      expect(human.stdout.split('\n')[0]).toBe('push-b/site is up to date: nothing to change.');
    });

    it('reports no change for a default written out, and names only the environments the file defines', async () => {
      const directory = await createProject(cli, 'push-defaults', 'site');
      await writeFile(join(directory, 'service.json'), serviceJson('push-defaults', 'site', { pinpoints: { production: false, staging: true }, auto: { timeout: 480 } }));
      const result = await cli.svc(['push'], { cwd: directory });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('push-defaults/site is up to date: nothing to change.\n\nPinpoints widget: off in production (`svc pinpoints snippet` prints the tag).\n');
      await writeFile(join(directory, 'service.json'), serviceJson('push-defaults', 'site', { environments: { production: { branch: 'main' }, staging: { branch: 'dev' } } }));
      const staging = await cli.svc(['push'], { cwd: directory });
      expect(staging.stdout).toContain('environments.staging: none → branch dev');
      expect(staging.stdout).toContain('Pinpoints widget: on in staging (');
    });

    it('renames a form by slug, keeping its endpoint id, and reports each change', async () => {
      const directory = await createProject(cli, 'push-c', 'site', { forms: [{ slug: 'contact', name: 'Contact' }] });
      const before = (await cli.svc(['forms', 'list', '--json'], { cwd: directory })).json<{ forms: FormInfo[] }>().forms[0]!;
      await writeFile(
        join(directory, 'service.json'),
        serviceJson('push-c', 'site', { framework: 'next', forms: [{ slug: 'contact', name: 'Contact us' }], domains: { production: ['WWW.Push-C.example'] }, auto: { timeout: 600 } }),
      );
      const result = await cli.svc(['push', '--json'], { cwd: directory });
      expect(result.code).toBe(0);
      const document = result.json<{ changed: boolean; changes: unknown[]; forms: FormInfo[] }>();
      expect(document.changed).toBe(true);
      expect(document.changes).toEqual([
        { action: 'updated', target: 'framework', summary: 'framework: static → next' },
        { action: 'updated', target: 'forms.contact', summary: 'renamed form contact: "Contact" → "Contact us"' },
        { action: 'created', target: 'domains.production', summary: 'domains.production: www.push-c.example' },
        { action: 'updated', target: 'auto.timeout', summary: 'auto.timeout: 480 → 600 (stored; not enforced yet)' },
      ]);
      expect(document.forms).toEqual([{ ...before, name: 'Contact us' }]);
    });

    it('keeps a form missing from the file and reports it; --prune deletes it with its submissions', async () => {
      const directory = await createProject(cli, 'push-d', 'site', { forms: [{ slug: 'contact' }, { slug: 'old' }] });
      const old = (await cli.svc(['forms', 'list', '--json'], { cwd: directory })).json<{ forms: FormInfo[] }>().forms.find((form) => form.slug === 'old')!;
      expect((await postJson(old.url, { message: 'kept?' })).status).toBe(200);
      await writeFile(join(directory, 'service.json'), serviceJson('push-d', 'site', { forms: [{ slug: 'contact' }] }));

      const kept = await cli.svc(['push'], { cwd: directory });
      expect(kept.code).toBe(0);
      expect(kept.stderr).toBe(
        'warning 1 form is on the server but not in service.json, kept with its submissions: old. Add them back, or delete them with `svc push --prune`.\n',
      );
      const keptJson = await cli.svc(['push', '--json'], { cwd: directory });
      expect(keptJson.json()).toMatchObject({ changed: false, keptForms: [{ slug: 'old', endpointId: old.endpointId }], prunedForms: [] });

      const dryRun = await cli.svc(['push', '--prune', '--dry-run'], { cwd: directory });
      expect(dryRun.stdout.split('\n').slice(0, 2)).toEqual(['Would change push-d/site (dry run: nothing was changed):', '  - deleted form old and its 1 submission']);
      expect((await postJson(old.url, { message: 'still there' })).status).toBe(200);

      const pruned = await cli.svc(['push', '--prune', '--json'], { cwd: directory });
      expect(pruned.code).toBe(0);
      expect(pruned.json()).toMatchObject({ changed: true, prunedForms: [{ slug: 'old', submissions: 2 }], keptForms: [] });
      expect((await postJson(old.url, { message: 'gone' })).status).toBe(404);
    });

    it('reports the same errors as svc validate for an invalid file, and sends nothing', async () => {
      const directory = await createProject(cli, 'push-e', 'site');
      await writeFile(join(directory, 'service.json'), serviceJson('push-e', 'site', { auto: { timeout: 5 }, forms: [{ slug: 'a' }, { slug: 'a' }] }));
      for (const json of [[], ['--json']]) {
        const validate = await cli.svc(['validate', ...json], { cwd: directory });
        const push = await cli.svc(['push', ...json], { cwd: directory });
        expect(validate.code).toBe(1);
        expect([push.code, push.stdout, push.stderr]).toEqual([validate.code, validate.stdout, validate.stderr]);
      }
      const pull = await cli.svc(['pull', '--json'], { cwd: await cli.directory({ 'service.json': serviceJson('push-e', 'site') }) });
      expect(pull.json<{ config: Record<string, unknown> }>().config['auto']).toBeUndefined();
    });

    it('answers 409 conflict for a hostname another project owns', async () => {
      await createProject(cli, 'push-f', 'one', { domains: { production: ['www.shared-host.example'] } });
      const directory = await createProject(cli, 'push-f', 'two');
      await writeFile(join(directory, 'service.json'), serviceJson('push-f', 'two', { domains: { staging: ['WWW.Shared-Host.example'] } }));
      const result = await cli.svc(['push', '--json'], { cwd: directory });
      expect(result.code).toBe(1);
      expect(result.json()).toEqual({
        ok: false,
        error: { code: 'conflict', message: 'www.shared-host.example is already used by another project', details: { hostnames: ['www.shared-host.example'] } },
      });
    });

    it('acts on --workspace/--project over the file, and answers not_found for a project that does not exist', async () => {
      const directory = await createProject(cli, 'push-g', 'site');
      const result = await cli.svc(['push', '--project', 'elsewhere', '--json'], { cwd: directory });
      expect(result.code).toBe(1);
      expect(result.json()).toEqual({ ok: false, error: { code: 'not_found', message: 'no project "elsewhere" in workspace "push-g"' } });
    });
  });

  describe('svc pull', () => {
    it('rewrites service.json in the schema\'s key order, keeps $schema, and is stable', async () => {
      const directory = await createProject(cli, 'pull-a', 'site', {
        auto: { timeout: 700 },
        pinpoints: { storeIp: false, production: true },
        domains: { staging: ['staging.pull-a.example'], production: ['www.pull-a.example'] },
        forms: [{ name: 'Contact', slug: 'contact' }],
        environments: { staging: { branch: 'develop' }, production: { branch: 'main' } },
      });
      const file = join(directory, 'service.json');
      await writeFile(file, `${JSON.stringify({ project: 'site', $schema: 'https://schemas.example.com/service.json', workspace: 'pull-a' })}\n`);
      const result = await cli.svc(['pull'], { cwd: directory });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('Wrote service.json from pull-a/site.\n');
      const text = await readConfig(directory);
      expect(text).toBe(
        `${JSON.stringify(
          {
            $schema: 'https://schemas.example.com/service.json',
            workspace: 'pull-a',
            project: 'site',
            framework: 'static',
            environments: { production: { branch: 'main' }, staging: { branch: 'develop' } },
            forms: [{ slug: 'contact', name: 'Contact' }],
            domains: { production: ['www.pull-a.example'], staging: ['staging.pull-a.example'] },
            pinpoints: { production: true, storeIp: false },
            auto: { timeout: 700 },
          },
          null,
          2,
        )}\n`,
      );
      const again = await cli.svc(['pull', '--json'], { cwd: directory });
      expect(again.json()).toMatchObject({ ok: true, changed: false, file });
      expect(await readConfig(directory)).toBe(text);
      const push = await cli.svc(['push', '--json'], { cwd: directory });
      expect(push.json()).toMatchObject({ changed: false });
    });

    it('pulls into a directory without service.json when the project is named', async () => {
      await createProject(cli, 'pull-b', 'site');
      const directory = await cli.directory();
      await mkdir(directory, { recursive: true });
      const result = await cli.svc(['pull', '--workspace', 'pull-b', '--project', 'site', '--json'], { cwd: directory });
      expect(result.code).toBe(0);
      expect(JSON.parse(await readConfig(directory))).toMatchObject({ $schema: `${cli.url}/schema/service.json`, workspace: 'pull-b' });
    });
  });
});
