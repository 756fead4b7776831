// What a deploy declares is checked, and stored contents are shared only within a workspace
// (docs/hosting.md, "What a deploy declares"; docs/privacy.md, "Files and who holds them"),
// through the real `svc` binary and the CLI API of a real `svc serve`.
import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@svc/server';
import { type CliTestServer, createProject, htmlPage, request, requestAsHost, selectBackend, startCliTestServer, uniqueName } from '@svc/testkit';

const backend = await selectBackend();
const sha256 = (content: Buffer | string) => createHash('sha256').update(content).digest('hex');

interface FileEntry {
  path: string;
  sha256: string;
  size: number;
}

describe.runIf(backend.available)(`what a deploy declares, and whose contents it may use, on ${backend.name}`, () => {
  let cli: CliTestServer;
  let store: Store;

  beforeAll(async () => {
    cli = await startCliTestServer(['--max-deploy-size', '64KiB']);
    store = await cli.environment.openStore();
  });
  afterAll(async () => {
    await store?.close();
    await cli?.stop();
  });

  const deploysPath = (workspace: string) => `${cli.url}/api/cli/projects/${workspace}/site/deploys`;
  const api = async (url: string, method: string, body?: Record<string, unknown> | Buffer | ReadableStream<Uint8Array>) => {
    const json = body !== undefined && !Buffer.isBuffer(body) && !(body instanceof ReadableStream);
    const binary = Buffer.isBuffer(body) ? new Uint8Array(body) : body;
    return request(url, {
      method,
      headers: { authorization: `Bearer ${cli.adminToken}`, 'content-type': json ? 'application/json' : 'application/octet-stream' },
      ...(body === undefined ? {} : { body: json ? JSON.stringify(body) : (binary as BodyInit), duplex: 'half' }),
    });
  };
  const start = async (workspace: string, files: FileEntry[]) => api(deploysPath(workspace), 'POST', { environment: 'production', files });
  const writeTree = async (directory: string, files: Record<string, string | Buffer>) => {
    for (const [path, content] of Object.entries(files)) await writeFile(join(directory, path), content);
  };
  const deploy = async (directory: string) => {
    const result = await cli.svc(['deploy', '--environment', 'production', '--json'], { cwd: directory });
    expect(result.code, result.stderr).toBe(0);
    return result.json<{ deploy: { id: string; uploadedFiles: number } }>().deploy;
  };

  it('refuses an upload with more or fewer bytes than its declared size (422), keeping none of them: the deploy limit counts real bytes', async () => {
    const workspace = uniqueName('declared');
    await createProject(cli, workspace, 'site');
    // 200 KiB declared as 1 KiB, under a 64 KiB deploy limit.
    const content = randomBytes(200 * 1024);
    const started = await start(workspace, [{ path: 'big.bin', sha256: sha256(content), size: 1024 }]);
    expect(started.status).toBe(200);
    const { deploy: created, missing } = started.body as { deploy: { id: string }; missing: string[] };
    expect(missing).toEqual([sha256(content)]);
    const upload = `${deploysPath(workspace)}/${created.id}/files/${sha256(content)}`;

    const longer = await api(upload, 'PUT', content);
    expect([longer.status, longer.body]).toEqual([422, { ok: false, error: 'validation_failed', errors: { size: 'must be 1024 bytes, as declared' }, message: expect.stringContaining('declares 1024 bytes') }]);
    // Without a content-length the bytes are counted as they arrive.
    const streamed = await api(upload, 'PUT', new Blob([new Uint8Array(content)]).stream());
    expect([streamed.status, (streamed.body as { error: string }).error]).toEqual([422, 'validation_failed']);
    const shorter = await api(upload, 'PUT', content.subarray(0, 1000));
    expect([shorter.status, (shorter.body as { errors: unknown }).errors]).toEqual([422, { size: 'must be 1024 bytes, as declared' }]);

    expect(await store.files.find(sha256(content))).toBeNull();
    expect((await api(`${deploysPath(workspace)}/${created.id}/finalize`, 'POST', {})).status).toBe(409);
  });

  it('refuses a deploy that declares another size for contents its workspace already stored, naming the file', async () => {
    const workspace = uniqueName('restated');
    const directory = await createProject(cli, workspace, 'site');
    const script = 'console.log("the real script")';
    await writeTree(directory, { 'index.html': htmlPage('Home'), 'app.js': script });
    await deploy(directory);
    const refused = await start(workspace, [
      { path: 'index.html', sha256: sha256(htmlPage('Home')), size: Buffer.byteLength(htmlPage('Home')) },
      { path: 'app.js', sha256: sha256(script), size: 9_000 },
    ]);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ ok: false, error: 'validation_failed', errors: { 'app.js': `is declared as 9000 bytes, but its contents (sha256 ${sha256(script)}) are ${script.length} bytes` } });
  });

  it('sends the stored size as content-length even where a deploy recorded another, so the next answer on the connection is intact', async () => {
    const workspace = uniqueName('framing');
    const hostname = `www.${workspace}.test`;
    const directory = await createProject(cli, workspace, 'site', { domains: { production: [hostname] } });
    const data = 'x'.repeat(1000);
    await writeTree(directory, { 'index.html': htmlPage('Next answer'), 'data.txt': data });
    const { id } = await deploy(directory);
    // As a deploy made before sizes were checked could have recorded it.
    await store.db.updateTable('deploy_files').set({ size: 10 }).where('deploy_id', '=', id).where('path', '=', 'data.txt').execute();

    const answers = await pipelined(new URL(cli.url).port, hostname, ['/data.txt', '/']);
    expect(answers.map((answer) => [answer.status, answer.headers['content-length'], answer.body])).toEqual([
      [200, '1000', data],
      [200, String(Buffer.byteLength(htmlPage('Next answer'))), htmlPage('Next answer')],
    ]);
    const head = await requestAsHost(cli.url, hostname, '/data.txt', { method: 'HEAD' });
    expect(head.headers['content-length']).toBe('1000');
  });

  it('answers `missing` for contents only another workspace stored exactly as for contents no one stored, and does not finalize without them', async () => {
    const owner = uniqueName('owner');
    const ownerDirectory = await createProject(cli, owner, 'site', { forms: [{ slug: 'apply' }] });
    const cv = randomBytes(3000);
    await postCv(ownerDirectory, cv);

    const other = uniqueName('other');
    await createProject(cli, other, 'site');
    const unknown = randomBytes(3000);
    const started = await start(other, [
      { path: 'cv.pdf', sha256: sha256(cv), size: cv.length },
      { path: 'unknown.bin', sha256: sha256(unknown), size: unknown.length },
    ]);
    expect(started.status).toBe(200);
    const { deploy: created, missing } = started.body as { deploy: { id: string }; missing: string[] };
    expect([...missing].sort()).toEqual([sha256(cv), sha256(unknown)].sort());
    const finalize = await api(`${deploysPath(other)}/${created.id}/finalize`, 'POST', {});
    expect([finalize.status, (finalize.body as { error: string }).error]).toEqual([409, 'conflict']);
  });

  it('lets the projects of one workspace use what another of its projects uploaded, without uploading it again', async () => {
    const workspace = uniqueName('shared');
    const tree = { 'index.html': htmlPage('Shared'), 'app.js': 'console.log("shared")' };
    const first = await createProject(cli, workspace, 'site');
    await writeTree(first, tree);
    expect((await deploy(first)).uploadedFiles).toBe(2);
    const second = await createProject(cli, workspace, 'blog');
    await writeTree(second, tree);
    expect((await deploy(second)).uploadedFiles).toBe(0);
    // Another workspace uploads its own copy.
    const stranger = await createProject(cli, uniqueName('stranger'), 'site');
    await writeTree(stranger, tree);
    expect((await deploy(stranger)).uploadedFiles).toBe(2);
  });

  it('erasing a submission removes its bytes from a deploy that only named them, and leaves them where a workspace uploaded its own copy', async () => {
    const owner = uniqueName('erasing');
    const ownerDirectory = await createProject(cli, owner, 'site', { forms: [{ slug: 'apply' }] });
    const named = randomBytes(4000);
    const uploaded = randomBytes(4000);
    const ids = [await postCv(ownerDirectory, named), await postCv(ownerDirectory, uploaded)];

    const other = uniqueName('publisher');
    const hostname = `www.${other}.test`;
    const directory = await createProject(cli, other, 'site', { domains: { production: [hostname] } });
    await writeTree(directory, { 'index.html': htmlPage('Published'), 'uploaded.pdf': uploaded });
    const { id } = await deploy(directory);
    // A deploy made before contents were held per workspace could name any stored content by its hash.
    await store.db.insertInto('deploy_files').values({ deploy_id: id, path: 'named.pdf', sha256: sha256(named), size: named.length }).execute();
    expect((await requestAsHost(cli.url, hostname, '/named.pdf')).body).toEqual(named);

    for (const submission of ids) expect((await cli.svc(['submissions', 'delete', submission, '--json'], { cwd: ownerDirectory })).code).toBe(0);

    expect(await store.files.find(sha256(named))).toBeNull();
    expect((await requestAsHost(cli.url, hostname, '/named.pdf')).status).toBe(404);
    const kept = await requestAsHost(cli.url, hostname, '/uploaded.pdf');
    expect([kept.status, kept.body.equals(uploaded)]).toEqual([200, true]);
  }, 120_000); // two projects, two posts, a deploy and two deletes: a dozen `svc` processes on a busy machine

  /** Posts `cv` to the project's form `apply` as a file upload; returns the submission's id. */
  async function postCv(directory: string, cv: Buffer): Promise<string> {
    const forms = (await cli.svc(['forms', 'list', '--json'], { cwd: directory })).json<{ forms: { slug: string; url: string }[] }>().forms;
    const body = new FormData();
    body.set('name', 'Ada');
    body.set('cv', new Blob([new Uint8Array(cv)], { type: 'application/pdf' }), 'cv.pdf');
    const answer = await request(forms.find((form) => form.slug === 'apply')!.url, { method: 'POST', body });
    expect(answer.status).toBe(200);
    return (answer.body as { id: string }).id;
  }
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * GETs `paths` on one keep-alive connection, sent together, and reads the answers back to
 * back, each framed by its content-length, as any HTTP/1.1 client does: bytes past an
 * answer's length would be read as the start of the next.
 */
function pipelined(port: string, host: string, paths: readonly string[]): Promise<RawAnswer[]> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    let data = Buffer.alloc(0);
    const answers: RawAnswer[] = [];
    const timer = setTimeout(() => finish(new Error(`only ${answers.length} answers in time`)), 10_000);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answers);
    };
    socket.on('connect', () => socket.write(paths.map((path) => `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`).join('')));
    socket.on('error', (error) => finish(error));
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      for (;;) {
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
        const status = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine ?? '');
        if (!status) return finish(new Error(`answer ${answers.length + 1} does not start with a status line: ${JSON.stringify(statusLine?.slice(0, 40))}`));
        const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        const length = Number(headers['content-length'] ?? 0);
        if (data.length < end + 4 + length) return;
        answers.push({ status: Number(status[1]), headers, body: data.subarray(end + 4, end + 4 + length).toString('utf8') });
        data = data.subarray(end + 4 + length);
        if (answers.length === paths.length) return finish();
      }
    });
  });
}
