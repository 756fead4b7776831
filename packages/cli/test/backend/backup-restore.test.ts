// The proof of issue 41 (docs/server.md, "Backups and moving"): a store with submissions and
// their files, a live site, members, tokens, audit entries and deliveries still pending is
// backed up by `svc backup` while posts keep arriving, restored by `svc restore` onto the
// other backend, served there with the same key (the same sites byte for byte, the same
// records, the old tokens, the pending deliveries delivered), then moved back the same way.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBackend,
  createProject,
  inCi,
  postgresProblem,
  postJson,
  request,
  requestAsHost,
  runSvcOnTerminal,
  selectBackend,
  startCliTestServer,
  startReceiver,
  startSvc,
  terminalAvailable,
  type Backend,
  type BackendName,
  type CliResult,
  type CliTestServer,
  type SvcProcess,
  type WebhookReceiver,
} from '@svc/testkit';

const backend = await selectBackend();
const other: BackendName = backend.name === 'sqlite' ? 'postgres' : 'sqlite';
const otherProblem = other === 'postgres' ? await postgresProblem() : null;
if (otherProblem !== null && backend.available) {
  if (inCi()) throw new Error(`CI=true requires PostgreSQL for the move onto it: ${otherProblem}`);
  console.warn(`⚠ skipping the move from SQLite to PostgreSQL: ${otherProblem}`);
}

// Deliveries retried every 2 s, looked for every second and leases short, so that the restored
// server takes up at once what the first one had pending; no rate limit in the way of the posts;
// files over 1 KiB stored on their own, the others in a row.
const serveFlags = ['--allow-private-targets', '--rate-limit', '100000/1m', '--delivery-poll-interval', '1s', '--retry-schedule', '2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s', '--delivery-timeout', '2s', '--delivery-lease', '3s', '--max-held-file-size', '1KiB'];
const hostname = 'www.agency.test';
const site: Record<string, Buffer> = {
  'index.html': Buffer.from('<!doctype html><title>Agency</title><h1>Agency</h1>'),
  'about/index.html': Buffer.from('<!doctype html><title>About</title><h1>About us</h1>'),
  'logo.bin': randomBytes(40_000),
  'style.css': Buffer.from('h1{color:#c00}'),
};
const paths = ['/', '/about/', '/logo.bin', '/style.css', '/missing'];
const smallFile = randomBytes(200);
const largeFile = randomBytes(5_000);

interface Posted {
  readonly id: string;
  readonly sentAt: number;
  readonly ackedAt: number;
}

/** What a server answers for the things a move must keep, addresses of the server aside. */
type Svc = (args: string[]) => Promise<CliResult>;

async function records(svc: Svc, url: string, directory: string): Promise<Record<string, unknown>> {
  const read = async (args: string[]): Promise<unknown> => {
    const result = await svc([...args, '--json']);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    // Addresses name the server's port (a deploy's preview address too).
    return JSON.parse(result.stdout.split(url).join('SERVER').split(`:${new URL(url).port}`).join(':PORT')) as unknown;
  };
  const tokens = (await read(['tokens', 'list'])) as { tokens: Record<string, unknown>[] };
  return {
    forms: await read(['forms', 'list']),
    webhooks: await read(['webhooks', 'list']),
    members: await read(['members', 'list']),
    auditLog: await read(['audit-log']),
    deploys: await read(['deploys', 'list']),
    // When a token was last used moves on with every call, this one's included.
    tokens: tokens.tokens.map(({ lastUsedAt: _lastUsedAt, ...token }) => token),
    directory,
  };
}

/** Every submission id of the form, all pages. */
async function submissionIds(svc: Svc): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  do {
    const page = await svc(['submissions', 'list', '--form', 'contact', '--limit', '100', ...(cursor ? ['--cursor', cursor] : []), '--json']);
    const body = page.json<{ submissions: { id: string }[]; nextCursor: string | null }>();
    for (const submission of body.submissions) ids.add(submission.id);
    cursor = body.nextCursor;
  } while (cursor);
  return ids;
}

/** What a hosted site answers on each path: status, type, ETag and the bytes. */
async function siteAnswers(url: string): Promise<unknown[]> {
  const answers = [];
  for (const path of paths) {
    const answer = await requestAsHost(url, hostname, path);
    answers.push({ path, status: answer.status, type: answer.headers['content-type'], etag: answer.headers['etag'], sha256: createHash('sha256').update(answer.body).digest('hex') });
  }
  return answers;
}

async function writeTree(root: string, files: Record<string, Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

describe.runIf(backend.available && otherProblem === null)(`moving a store from ${backend.name} to ${other} and back with svc backup and svc restore`, () => {
  let cli: CliTestServer;
  let receiver: WebhookReceiver;
  let directory: string;
  let formUrl: string;
  let key: string;
  let workspaceToken: string;
  let fileSubmission: string;
  let pendingDeliveries: string[];
  let before: Record<string, unknown>;
  let siteBefore: unknown[];
  let posted: Posted[];
  let backupStartedAt: number;
  let backupEndedAt: number;
  let archive: string;
  const servers: SvcProcess[] = [];
  const backends: Backend[] = [];

  /** `svc` against another server than the CLI test server's. */
  const svcAt = (server: SvcProcess, token?: string) => (args: string[]) => cli.svc(args, { cwd: directory, env: { SVC_API_URL: server.url }, ...(token ? { token } : {}) });
  const serveOn = async (target: Backend): Promise<SvcProcess> => {
    const server = await startSvc({ args: [...target.serverArgs, ...serveFlags], env: { SVC_ENCRYPTION_KEY: key } });
    servers.push(server);
    return server;
  };
  const targetFlags = (target: Backend): string[] => (target.databaseUrl ? ['--database-url', target.databaseUrl] : ['--data-dir', target.dataDir]);
  const sourceFlags = (target: Backend): string[] => ['--data-dir', target.dataDir, ...(target.databaseUrl ? ['--database-url', target.databaseUrl] : [])];
  const fresh = async (name: BackendName): Promise<Backend> => {
    const made = await createBackend(name, 'svcmove');
    backends.push(made);
    return made;
  };

  beforeAll(async () => {
    receiver = await startReceiver({ respond: () => ({ status: 503, body: 'not yet' }) });
    cli = await startCliTestServer(serveFlags);
    key = (await readFile(join(cli.environment.dataDir, 'encryption.key'), 'utf8')).trim();
    directory = await createProject(cli, 'agency', 'site', { forms: [{ slug: 'contact', name: 'Contact' }], domains: { production: [hostname] } });
    formUrl = (await cli.svc(['forms', 'list', '--json'], { cwd: directory })).json<{ forms: { url: string }[] }>().forms[0]!.url;
    expect((await cli.svc(['webhooks', 'add', '--url', `${receiver.url}/hook`, '--events', 'form.*', '--json'], { cwd: directory })).code).toBe(0);
    await writeTree(join(directory, 'public'), site);
    const deployed = await cli.svc(['deploy', 'public', '--environment', 'production', '--json'], { cwd: directory });
    expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0);
    expect((await cli.svc(['members', 'invite', 'ada@example.com', '--workspace', 'agency', '--name', 'Ada', '--json'], { cwd: directory })).code).toBe(0);
    const token = await cli.svc(['tokens', 'create', '--name', 'ci', '--workspace', 'agency']);
    expect(token.code, token.stderr).toBe(0);
    workspaceToken = token.stdout.trim();
    const form = new FormData();
    form.set('email', 'grace@example.com');
    form.set('brief', new Blob([smallFile]), 'brief.bin');
    form.set('plan', new Blob([largeFile]), 'plan.bin');
    const multipart = await request(formUrl, { method: 'POST', body: form });
    expect(multipart.status).toBe(200);
    fileSubmission = (multipart.body as { id: string }).id;
    for (let n = 0; n < 3; n++) expect((await postJson(formUrl, { n, message: `before ${n}` })).status).toBe(200);
    // The receiver refuses: every delivery stays pending, retried every 2 s.
    await receiver.waitFor(4);
    const pending = await cli.svc(['deliveries', 'list', '--status', 'pending', '--json'], { cwd: directory });
    pendingDeliveries = pending.json<{ deliveries: { id: string }[] }>().deliveries.map((delivery) => delivery.id);
    expect(pendingDeliveries.length).toBeGreaterThanOrEqual(4);
    before = await records((args) => cli.svc(args, { cwd: directory }), cli.url, directory);
    siteBefore = await siteAnswers(cli.url);
    expect(siteBefore).toContainEqual(expect.objectContaining({ path: '/logo.bin', status: 200 }));
  }, 180_000);

  afterAll(async () => {
    for (const server of servers) await server.stop().catch(() => undefined);
    await cli?.stop().catch(() => undefined);
    await receiver?.close();
    for (const made of backends) await made.cleanup().catch(() => undefined);
  });

  it('svc backup writes a consistent snapshot while posts keep arriving', { timeout: 120_000 }, async () => {
    archive = join(dirname(cli.environment.dataDir), `svc-move-${randomBytes(4).toString('hex')}.tar`);
    posted = [];
    let posting = true;
    const loop = (async () => {
      for (let n = 0; posting; n++) {
        const sentAt = Date.now();
        const answer = await postJson(formUrl, { n, message: 'during the backup' });
        if (answer.status === 200) posted.push({ id: (answer.body as { id: string }).id, sentAt, ackedAt: Date.now() });
      }
    })();
    const started = Date.now();
    while (posted.length < 10 && Date.now() - started < 30_000) await new Promise((resolve) => setTimeout(resolve, 20));
    backupStartedAt = Date.now();
    const result = await cli.svc(['backup', ...sourceFlags(cli.environment), '--out', archive, '--json']);
    backupEndedAt = Date.now();
    const settled = posted.length;
    while (posted.length < settled + 5 && Date.now() - backupEndedAt < 30_000) await new Promise((resolve) => setTimeout(resolve, 20));
    posting = false;
    await loop;
    expect(result.code, result.stderr).toBe(0);
    // No terminal: no progress, and stdout is the one JSON document.
    expect(result.stderr).toBe('');
    const made = result.json<{ ok: true; backup: { out: string; tables: Record<string, number>; files: number; keyFingerprint: string } }>();
    expect(made.backup).toMatchObject({ out: archive, files: 2 + Object.keys(site).length });
    expect(made.backup.tables['submissions']).toBeGreaterThanOrEqual(4 + posted.filter((post) => post.ackedAt < backupStartedAt).length);
    // Each submission and its event were written in one transaction: a snapshot has both or neither.
    expect(made.backup.tables['events']).toBeGreaterThanOrEqual(made.backup.tables['submissions']!);
    // Stopped now, so that what was pending is delivered by the restored server or not at all.
    expect(await cli.server.stop()).toBe(0);
  });

  it(`svc restore onto ${other}: a server with the same key serves the same sites, records and tokens, and delivers what was pending`, { timeout: 180_000 }, async () => {
    const target = await fresh(other);
    const restored = await cli.svc(['restore', archive, ...targetFlags(target), '--json'], { env: { SVC_ENCRYPTION_KEY: key } });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.json()).toMatchObject({ ok: true, restore: { differentKey: false, setAgain: [] } });
    const server = await serveOn(target);
    expect(server.adminToken).toBeUndefined();
    const svc = svcAt(server);

    expect(await siteAnswers(server.url)).toEqual(siteBefore);
    expect(await records(svc, server.url, directory)).toEqual(before);
    const ids = await submissionIds(svc);
    expect(ids.has(fileSubmission)).toBe(true);
    for (const post of posted) {
      // Acknowledged before the backup began: in it. Sent after it ended: not.
      if (post.ackedAt < backupStartedAt) expect(ids.has(post.id), `${post.id} acknowledged before the backup`).toBe(true);
      if (post.sentAt > backupEndedAt) expect(ids.has(post.id), `${post.id} sent after the backup`).toBe(false);
    }
    const downloads = join(dirname(archive), `downloads-${randomBytes(4).toString('hex')}`);
    expect((await svc(['submissions', 'download', fileSubmission, '--output', downloads, '--json'])).code).toBe(0);
    expect((await readFile(join(downloads, 'brief.bin'))).equals(smallFile)).toBe(true);
    expect((await readFile(join(downloads, 'plan.bin'))).equals(largeFile)).toBe(true);
    await rm(downloads, { recursive: true, force: true });
    // The old workspace token works on the new server.
    const asWorkspace = await svcAt(server, workspaceToken)(['forms', 'list', '--json']);
    expect(asWorkspace.code, asWorkspace.stderr).toBe(0);

    receiver.respond(() => ({ status: 200, body: 'thanks' }));
    await receiver.waitFor(pendingDeliveries.length, (delivery) => pendingDeliveries.includes(delivery.deliveryId), 60_000).catch(() => {
      const seen = new Set(receiver.requests.map((delivery) => delivery.deliveryId));
      throw new Error(`not delivered after the restore: ${pendingDeliveries.filter((id) => !seen.has(id)).join(', ')}`);
    });
  });

  it(`and back from ${other} onto ${backend.name}, while it runs`, { timeout: 180_000 }, async () => {
    const middle = backends.at(-1)!;
    const middleServer = servers.at(-1)!;
    // It has delivered and logged the downloads since: once nothing is pending, what it holds
    // is what must move.
    const deadline = Date.now() + 60_000;
    const pendingThere = async () => (await svcAt(middleServer)(['deliveries', 'list', '--status', 'pending', '--json'])).json<{ deliveries: unknown[] }>().deliveries.length;
    while ((await pendingThere()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await pendingThere()).toBe(0);
    const now = await records(svcAt(middleServer), middleServer.url, directory);
    const again = `${archive}.again`;
    const made = await cli.svc(['backup', ...sourceFlags(middle), '--out', again], { env: { SVC_ENCRYPTION_KEY: key } });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^Wrote .* at migration \d+\.\nIts secrets are sealed with key [0-9a-f]{12}/);
    const target = await fresh(backend.name);
    const restored = await cli.svc(['restore', again, ...targetFlags(target)], { env: { SVC_ENCRYPTION_KEY: key } });
    expect(restored.code, restored.stderr).toBe(0);
    const server = await serveOn(target);
    expect(await siteAnswers(server.url)).toEqual(siteBefore);
    expect(await records(svcAt(server), server.url, directory)).toEqual(now);
    await rm(again, { force: true });
  });

  it.runIf(terminalAvailable)('shows its progress on a terminal, on stderr, and clears it', { timeout: 60_000 }, async () => {
    const target = backends.at(-1)!;
    const path = `${archive}.terminal`;
    const shown = await runSvcOnTerminal(['backup', ...sourceFlags(target), '--out', path], { cwd: directory, env: { SVC_ENCRYPTION_KEY: key }, answers: [] });
    expect(shown.code, shown.screen).toBe(0);
    const rewrite = '\r\u001b[2K';
    expect(shown.raw).toContain(`${rewrite}tables/submissions: `);
    expect(shown.raw).toContain(`${rewrite}files: `);
    expect(shown.screen).toMatch(/Wrote .*svc-move-.*\.tar\.terminal/);
    // The progress line is cleared before the result is printed.
    expect(shown.raw).toContain(`${rewrite}Wrote `);
    await rm(path, { force: true });
  });

  it('refuses a truncated archive, a store that is not empty and a missing target, writing nothing', { timeout: 60_000 }, async () => {
    const cut = `${archive}.cut`;
    await writeFile(cut, await readFile(archive));
    await truncate(cut, Math.floor((await stat(archive)).size * 0.6));
    const empty = join(dirname(archive), `never-${randomBytes(4).toString('hex')}`);
    const truncated = await cli.svc(['restore', cut, '--data-dir', empty, '--json'], { env: { SVC_ENCRYPTION_KEY: key } });
    expect(truncated.code).toBe(1);
    expect(truncated.json()).toMatchObject({ ok: false, error: { code: 'archive_invalid' } });
    expect(await readdir(empty).catch(() => null)).toBeNull();
    await rm(cut, { force: true });

    const occupied = backends.at(-1)!;
    const again = await cli.svc(['restore', archive, ...targetFlags(occupied), '--json'], { env: { SVC_ENCRYPTION_KEY: key } });
    expect(again.code).toBe(1);
    expect(again.json()).toMatchObject({ ok: false, error: { code: 'conflict' } });

    const neither = await cli.svc(['restore', archive, '--json']);
    expect(neither.code).toBe(2);
    expect(neither.json()).toMatchObject({ ok: false, error: { code: 'usage' } });
    await rm(archive, { force: true });
  });
});
