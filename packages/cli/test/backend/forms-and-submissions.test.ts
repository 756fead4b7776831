// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve`: build first.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, createProject, postJson, request, selectBackend, startCliTestServer } from '@svc/testkit';

const backend = await selectBackend();

interface FormInfo {
  slug: string;
  url: string;
  endpointId: string;
}
interface Page {
  submissions: { id: string; state: string; fields: Record<string, unknown>; files: { field: string; name: string }[] }[];
  nextCursor: string | null;
}

describe.runIf(backend.available)(`svc forms and svc submissions on ${backend.name}`, () => {
  let cli: CliTestServer;
  let directory: string;
  let contact: FormInfo;
  let ids: string[];

  beforeAll(async () => {
    cli = await startCliTestServer();
    directory = await createProject(cli, 'subs', 'site', { forms: [{ slug: 'contact', name: 'Contact' }, { slug: 'empty' }, { slug: 'limited' }] });
    const forms = (await cli.svc(['forms', 'list', '--json'], { cwd: directory })).json<{ forms: FormInfo[] }>().forms;
    contact = forms.find((form) => form.slug === 'contact')!;
    ids = [];
    for (const fields of [{ name: 'Ada', email: 'ada@example.com' }, { name: 'Grace, "Amazing"', message: 'line one\nline two' }, { email: 'x@example.com', tags: ['a', 'b'] }]) {
      const answer = await postJson(contact.url, fields);
      ids.push((answer.body as { id: string }).id);
    }
    const form = new FormData();
    form.set('name', 'Linus');
    form.set('cv', new Blob(['%PDF-1.4 test'], { type: 'application/pdf' }), 'cv.pdf');
    const multipart = await request(contact.url, { method: 'POST', body: form });
    ids.push((multipart.body as { id: string }).id);
    await postJson(contact.url, { email: 'spam@example.com' }, { 'x-service-honeypot': '1' });
  });
  afterAll(async () => {
    await cli?.stop();
  });

  it('forms list prints a table for people and the forms for scripts', async () => {
    const human = await cli.svc(['forms', 'list'], { cwd: directory });
    expect(human.code).toBe(0);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SLUG\s+NAME\s+ENDPOINT ID\s+URL\s+RATE LIMIT$/);
    expect(lines[1]).toMatch(new RegExp(`^contact\\s+Contact\\s+${contact.endpointId}\\s+${contact.url}\\s+default \\(30/5m\\)$`));
    expect(lines[2]).toMatch(/^empty\s+[0-9a-z]{24}\s+\S+\s+default \(30\/5m\)$/);
    expect(lines[3]).toMatch(/^limited\s+[0-9a-z]{24}\s+\S+\s+default \(30\/5m\)$/);
    const json = await cli.svc(['forms', 'list', '--json'], { cwd: directory });
    expect(json.json()).toEqual({
      ok: true,
      forms: [
        { slug: 'contact', name: 'Contact', endpointId: contact.endpointId, url: `${cli.url}/api/f/${contact.endpointId}`, rateLimit: null, successUrl: null, errorUrl: null, notify: [], retentionSeconds: null, captcha: 'none', captchaSecretSet: false, maxLinks: null, origins: 'any' },
        { slug: 'empty', name: null, endpointId: expect.any(String), url: expect.any(String), rateLimit: null, successUrl: null, errorUrl: null, notify: [], retentionSeconds: null, captcha: 'none', captchaSecretSet: false, maxLinks: null, origins: 'any' },
        { slug: 'limited', name: null, endpointId: expect.any(String), url: expect.any(String), rateLimit: null, successUrl: null, errorUrl: null, notify: [], retentionSeconds: null, captcha: 'none', captchaSecretSet: false, maxLinks: null, origins: 'any' },
      ],
      defaultRateLimit: { max: 30, windowSeconds: 300 },
    });
  });

  it('forms set-rate-limit gives a form its own limit, which the form endpoint applies at once, and default restores it', async () => {
    const limited = (await cli.svc(['forms', 'list', '--json'], { cwd: directory })).json<{ forms: FormInfo[] }>().forms[2]!;
    const set = await cli.svc(['forms', 'set-rate-limit', 'limited', '2/1m'], { cwd: directory });
    expect(set.code).toBe(0);
    expect(set.stdout).toBe('Form limited is limited to 2/1m per client IP.\n');
    const answer = await postJson(limited.url, { a: 1 });
    expect(answer.headers.get('ratelimit-policy')).toBe('"form";q=2;w=60');
    const list = await cli.svc(['forms', 'list'], { cwd: directory });
    expect(list.stdout).toMatch(/^limited\s+.*\s2\/1m$/m);

    const reset = await cli.svc(['forms', 'set-rate-limit', 'limited', 'default', '--json'], { cwd: directory });
    expect(reset.json()).toMatchObject({ ok: true, changed: true, form: { slug: 'limited', rateLimit: null } });
    expect((await postJson(limited.url, { a: 2 })).headers.get('ratelimit-policy')).toBe('"form";q=30;w=300');
    const unchanged = await cli.svc(['forms', 'set-rate-limit', 'limited', 'default'], { cwd: directory });
    expect(unchanged.stdout).toBe('Unchanged: form limited is limited to the default, 30/5m per client IP.\n');

    const unknown = await cli.svc(['forms', 'set-rate-limit', 'nope', '5/1m', '--json'], { cwd: directory });
    expect(unknown.code).toBe(1);
    expect(unknown.json()).toEqual({ ok: false, error: { code: 'not_found', message: 'no form "nope" in project "site"' } });
  });

  it('submissions list prints the inbox newest first as a table, and the page as JSON', async () => {
    const human = await cli.svc(['submissions', 'list', '--form', 'contact'], { cwd: directory });
    expect(human.code).toBe(0);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+RECEIVED\s+FIELDS$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual([...ids].reverse());
    expect(lines[1]).toMatch(/name=Linus files=cv\.pdf$/);
    expect(lines[3]).toMatch(/name=Grace, "Amazing" message=line one line two$/);
    expect(human.stderr).toBe('');

    const json = await cli.svc(['submissions', 'list', '--form', 'contact', '--json'], { cwd: directory });
    const page = json.json<Page & { ok: boolean; state: string }>();
    expect(page.state).toBe('inbox');
    expect(page.nextCursor).toBeNull();
    expect(page.submissions.map((submission) => submission.id)).toEqual([...ids].reverse());
    expect(page.submissions[0]).toEqual({
      id: ids[3],
      state: 'inbox',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      fields: { name: 'Linus' },
      files: [{ field: 'cv', name: 'cv.pdf', size: 13, contentType: 'application/pdf' }],
    });
  });

  it('submissions list pages with --limit and --cursor, and lists spam with --spam', async () => {
    const first = (await cli.svc(['submissions', 'list', '--form', 'contact', '--limit', '3', '--json'], { cwd: directory })).json<Page>();
    expect(first.submissions.map((submission) => submission.id)).toEqual([ids[3], ids[2], ids[1]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const human = await cli.svc(['submissions', 'list', '--form', 'contact', '--limit', '3'], { cwd: directory });
    expect(human.stderr).toBe(`More: svc submissions list --form contact --limit 3 --cursor ${first.nextCursor}\n`);
    const second = (await cli.svc(['submissions', 'list', '--form', 'contact', '--limit', '3', '--cursor', first.nextCursor!, '--json'], { cwd: directory })).json<Page>();
    expect(second).toMatchObject({ submissions: [{ id: ids[0] }], nextCursor: null });

    const spam = (await cli.svc(['submissions', 'list', '--form', 'contact', '--spam', '--json'], { cwd: directory })).json<Page>();
    expect(spam.submissions).toEqual([expect.objectContaining({ state: 'spam', fields: { email: 'spam@example.com' } })]);

    const wrongListing = await cli.svc(['submissions', 'list', '--form', 'contact', '--spam', '--cursor', first.nextCursor!, '--json'], { cwd: directory });
    expect(wrongListing.code).toBe(1);
    expect(wrongListing.json()).toEqual({ ok: false, error: { code: 'invalid_cursor', message: 'the cursor belongs to the inbox listing, not the spam one' } });
    const garbage = await cli.svc(['submissions', 'list', '--form', 'contact', '--cursor', 'not-a-cursor', '--json'], { cwd: directory });
    expect(garbage.json()).toMatchObject({ error: { code: 'invalid_cursor' } });

    const empty = await cli.svc(['submissions', 'list', '--form', 'empty'], { cwd: directory });
    expect(empty.stdout).toBe('No submissions in the inbox of empty.\n');
    const unknown = await cli.svc(['submissions', 'list', '--form', 'nope', '--json'], { cwd: directory });
    expect(unknown.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('submissions export streams RFC 4180 CSV: the union of field names, file names, quoting', async () => {
    const result = await cli.svc(['submissions', 'export', '--form', 'contact'], { cwd: directory });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('Exported 4 submissions from the inbox of contact.\n');
    const rows = result.stdout.split('\r\n');
    expect(rows[0]).toBe('submission_id,submitted_at,name,email,message,tags,cv');
    expect(rows[1]).toMatch(new RegExp(`^${ids[0]},[^,]+,Ada,ada@example.com,,,$`));
    expect(rows[2]).toMatch(new RegExp(`^${ids[1]},[^,]+,"Grace, ""Amazing""",,"line one\nline two",,$`));
    expect(rows[3]).toMatch(new RegExp(`^${ids[2]},[^,]+,,x@example.com,,"\\[""a"",""b""\\]",$`));
    expect(rows[4]).toMatch(new RegExp(`^${ids[3]},[^,]+,Linus,,,,cv.pdf$`));
    expect(rows[5]).toBe('');
    expect(rows).toHaveLength(6);
  });

  it('submissions export keeps at most 200 field columns and puts the rest in other_fields, so the CSV grows with the data only', async () => {
    const wideProject = await createProject(cli, 'wide', 'site', { forms: [{ slug: 'wide' }] });
    const [wide] = (await cli.svc(['forms', 'list', '--json'], { cwd: wideProject })).json<{ forms: FormInfo[] }>().forms;
    for (let i = 0; i < 25; i++) {
      const fields = Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`f${i}_${j}`, `v${i}_${j}`]));
      expect((await postJson(wide!.url, fields)).status).toBe(200);
    }
    const result = await cli.svc(['submissions', 'export', '--form', 'wide'], { cwd: wideProject });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\r\n');
    expect(lines).toHaveLength(26);
    const header = lines[0]!.split(',');
    expect(header).toHaveLength(2 + 200 + 1);
    expect(header.at(-1)).toBe('other_fields');
    expect(lines[25]).toContain('""f24_9"":""v24_9""');
    expect(lines[1]!.split(',').length).toBeLessThan(2 + 200 + 1 + 1);
  });

  it('submissions export --format ndjson writes one submission per line, oldest first', async () => {
    const result = await cli.svc(['submissions', 'export', '--form', 'contact', '--format', 'ndjson'], { cwd: directory });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: string; fields: unknown });
    expect(lines.map((line) => line.id)).toEqual(ids);
    expect(lines[1]!.fields).toEqual({ name: 'Grace, "Amazing"', message: 'line one\nline two' });
    const spam = await cli.svc(['submissions', 'export', '--form', 'contact', '--format', 'ndjson', '--spam'], { cwd: directory });
    expect(spam.stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('submissions export --output writes a file readable by its owner only, and --json summarises', async () => {
    const target = join(await cli.directory(), 'contact.csv');
    const result = await cli.svc(['submissions', 'export', '--form', 'contact', '--output', target, '--json'], { cwd: directory });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.json()).toEqual({ ok: true, form: 'contact', state: 'inbox', format: 'csv', count: 4, file: target });
    expect((await readFile(target, 'utf8')).startsWith('submission_id,submitted_at,name,email,message,tags,cv\r\n')).toBe(true);
    expect((await stat(target)).mode & 0o777).toBe(0o600);

    const empty = await cli.svc(['submissions', 'export', '--form', 'empty'], { cwd: directory });
    expect(empty.stdout).toBe('submission_id,submitted_at\r\n');
    expect(empty.stderr).toBe('Exported 0 submissions from the inbox of empty.\n');
  });
});
