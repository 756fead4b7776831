import { createHash, randomBytes } from 'node:crypto';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBackendSuite } from '@svc/testkit/vitest';
import { createForm, request, selectBackend, type FormFixture } from '@svc/testkit';

const backend = await selectBackend();

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.runIf(backend.available)(`files held with their submission on ${backend.name}`, () => {
  const suite = useBackendSuite({ args: ['--max-held-file-size', '16KiB', '--max-file-size', '64KiB'] });

  const formUrl = (form: FormFixture) => `${suite.server.url}/api/f/${form.endpointId}`;
  const blobRow = (sha256: string) => suite.store.db.selectFrom('file_blobs').select(['size', 'content']).where('sha256', '=', sha256).executeTakeFirst();

  async function readBack(sha256: string): Promise<Buffer> {
    const stream = await suite.store.files.open(sha256);
    expect(stream, `file ${sha256} is stored`).not.toBeNull();
    const chunks: Buffer[] = [];
    for await (const chunk of stream!) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  function post(form: FormFixture, files: Record<string, Uint8Array>, headers: Record<string, string> = {}) {
    const body = new FormData();
    body.append('email', 'ada@example.com');
    for (const [name, bytes] of Object.entries(files)) body.append(name, new Blob([Buffer.from(bytes)]), `${name}.bin`);
    return request(formUrl(form), { method: 'POST', body, headers });
  }

  it('commits a small file as a row with its submission and spools a larger one; both read back byte for byte', async () => {
    const form = await createForm(suite.store);
    const small = randomBytes(10 * 1024);
    const large = randomBytes(40 * 1024);
    const answer = await post(form, { small, large });
    expect(answer.status, answer.text).toBe(200);

    const held = await blobRow(sha256Of(small));
    expect(held?.size).toBe(small.length);
    expect(Buffer.from(held!.content!).equals(small)).toBe(true);
    const spooled = await blobRow(sha256Of(large));
    // On disk (SQLite), or in chunks (PostgreSQL): never a whole-content row.
    if (backend.name === 'sqlite') expect(spooled).toBeUndefined();
    else expect(spooled?.content).toBeNull();

    expect((await readBack(sha256Of(small))).equals(small)).toBe(true);
    expect((await readBack(sha256Of(large))).equals(large)).toBe(true);
    const range = await suite.store.files.open(sha256Of(small), { start: 100, end: 199 });
    const ranged: Buffer[] = [];
    for await (const chunk of range!) ranged.push(chunk as Buffer);
    expect(Buffer.concat(ranged).equals(small.subarray(100, 200))).toBe(true);
  });

  it('stores every file of submissions committed together, equal contents once', async () => {
    const form = await createForm(suite.store);
    const shared = randomBytes(4 * 1024);
    const own = Array.from({ length: 24 }, () => randomBytes(8 * 1024));
    const answers = await Promise.all(own.map((bytes) => post(form, { own: bytes, shared })));
    expect(answers.map((answer) => answer.status)).toEqual(own.map(() => 200));

    for (const bytes of [...own, shared]) expect((await readBack(sha256Of(bytes))).equals(bytes)).toBe(true);
    const rows = await suite.store.db.selectFrom('file_blobs').select('sha256').where('sha256', '=', sha256Of(shared)).execute();
    expect(rows).toHaveLength(1);
    const submissions = await suite.store.db.selectFrom('submissions').select('files').where('form_id', '=', form.formId).execute();
    expect(submissions).toHaveLength(own.length);
  });

  it('stores no file of a replayed submission', async () => {
    const form = await createForm(suite.store);
    const first = randomBytes(2 * 1024);
    const second = randomBytes(2 * 1024);
    const original = await post(form, { cv: first }, { 'idempotency-key': 'held-replay' });
    const replay = await post(form, { cv: second }, { 'idempotency-key': 'held-replay' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(original.body);
    expect((original.body as { id?: string }).id).toMatch(/^sub_/);
    expect(await blobRow(sha256Of(first))).toBeDefined();
    expect(await blobRow(sha256Of(second))).toBeUndefined();
    expect(await suite.store.files.open(sha256Of(second))).toBeNull();
  });

  it.runIf(backend.name === 'sqlite')('keeps larger files as files/<sha256>, and reads, finds and removes one an earlier version kept under files/<2 hex>/', async () => {
    const form = await createForm(suite.store);
    const uploads = Array.from({ length: 6 }, () => randomBytes(40 * 1024));
    const answers = await Promise.all(uploads.map((bytes) => post(form, { large: bytes })));
    expect(answers.map((answer) => answer.status)).toEqual(uploads.map(() => 200));
    for (const bytes of uploads) {
      expect((await stat(join(suite.environment.dataDir, 'files', sha256Of(bytes)))).size).toBe(bytes.length);
      expect((await readBack(sha256Of(bytes))).equals(bytes)).toBe(true);
    }

    const legacy = randomBytes(30 * 1024);
    const sha256 = sha256Of(legacy);
    await mkdir(join(suite.environment.dataDir, 'files', sha256.slice(0, 2)), { recursive: true });
    await writeFile(join(suite.environment.dataDir, 'files', sha256.slice(0, 2), sha256), legacy);
    expect((await readBack(sha256)).equals(legacy)).toBe(true);
    expect(await suite.store.files.sizes([sha256, sha256Of(uploads[0]!), sha256Of(randomBytes(8))])).toEqual(new Map([[sha256, legacy.length], [sha256Of(uploads[0]!), uploads[0]!.length]]));
    await suite.store.files.remove(sha256);
    expect(await suite.store.files.open(sha256)).toBeNull();
  });
});
