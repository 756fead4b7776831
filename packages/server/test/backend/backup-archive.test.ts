// svc backup / svc restore below the CLI (docs/server.md, "Backups and moving"): what an
// archive holds, values that must come back exactly on the other backend, older and newer
// archives, damaged archives, another key. The round trip through real servers is in
// packages/cli/test/backend/backup-restore.test.ts.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackend, createForm, createWebhook, inCi, newEncryptionKey, postgresProblem, selectBackend, type Backend, type BackendName } from '@svc/testkit';
import { restoreBackup, writeBackup, type BackupResult } from '../../src/backup/index.js';
import { leftOutTables, ledger } from '../../src/backup/table-policy.js';
import { generatePushSecret, pushSecretContext, repoTokenContext } from '../../src/builds/git-secrets.js';
import { checkEncryptionKey } from '../../src/encryption-check.js';
import { captchaSecretContext } from '../../src/forms/spam/captcha-secret.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';
import { keyIdOf, SecretBox } from '../../src/secrets/secret-box.js';
import { loadMigrations } from '../../src/store/migrations.js';
import { openStore } from '../../src/store/open-store.js';
import { openSnapshot } from '../../src/store/open-snapshot.js';
import { readTableRows } from '../../src/store/queries/table-rows.js';
import type { Store } from '../../src/store/store.js';
import { encodeRow } from '../../src/backup/row-codec.js';
import { signingSecretContext } from '../../src/webhooks/signing-secret.js';

const backend = await selectBackend();
const other: BackendName = backend.name === 'sqlite' ? 'postgres' : 'sqlite';
const otherProblem = other === 'postgres' ? await postgresProblem() : null;
if (otherProblem !== null && backend.available) {
  if (inCi()) throw new Error(`CI=true requires PostgreSQL for the restore onto it: ${otherProblem}`);
  console.warn(`⚠ skipping backups from SQLite onto PostgreSQL: ${otherProblem}`);
}

const beyondDouble = 9_007_199_254_740_993n; // 2^53 + 1: a double would round it
const jsonText = '{ "b" : [1,2.50, "é\\u00e9"],\n\t"a":{"z":null,"y":true} }';
const oddText = 'quotes " \' and \\ back\nslash, tabs\t, emoji 🦊, RTL ‮, zero-width ​';
const allBytes = Buffer.from(Array.from({ length: 256 }, (_, index) => index));

/** Every row of every table but the ledger, each as its NDJSON line, sorted: what a store holds, backend aside. */
async function contents(target: Backend): Promise<Record<string, string[]>> {
  const snapshot = await openSnapshot({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
  try {
    const out: Record<string, string[]> = {};
    for (const table of await snapshot.catalog.tables()) {
      if (table.name === ledger || Object.hasOwn(leftOutTables, table.name)) continue;
      const lines: string[] = [];
      for await (const row of readTableRows(snapshot.db, table.name, table.primaryKey)) lines.push(encodeRow(row));
      out[table.name] = lines.sort();
    }
    return out;
  } finally {
    await snapshot.close();
  }
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The archive's members, in order, as buffers (small archives only). */
async function members(path: string): Promise<{ name: string; content: Buffer }[]> {
  const extract = tar.extract();
  const found: { name: string; content: Buffer }[] = [];
  Readable.from([await readFile(path)]).pipe(extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    found.push({ name: entry.header.name, content: Buffer.concat(chunks) });
  }
  return found;
}

/** Writes members as a tar file. */
async function writeArchive(path: string, entries: { name: string; content: Buffer }[]): Promise<void> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  pack.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
  for (const entry of entries) pack.entry({ name: entry.name, size: entry.content.length }, entry.content);
  pack.finalize();
  await done;
  await writeFile(path, Buffer.concat(chunks));
}

async function tableNames(target: Backend): Promise<string[]> {
  if (target.backend === 'sqlite' && !(await stat(join(target.dataDir, 'svc.sqlite')).catch(() => null))) return [];
  const snapshot = await openSnapshot({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
  try {
    return (await snapshot.catalog.tables()).map((table) => table.name);
  } finally {
    await snapshot.close();
  }
}

describe.runIf(backend.available && otherProblem === null)(`backup archives from ${backend.name}, restored onto ${other}`, () => {
  const key = newEncryptionKey();
  const box = new SecretBox(parseEncryptionKey(key));
  let source: Backend;
  let store: Store;
  let work: string;
  let archive: string;
  let made: BackupResult;
  let webhookId: string;
  let formId: string;
  let projectId: string;
  const cleanups: (() => Promise<unknown>)[] = [];
  const fresh = async (name: BackendName): Promise<Backend> => {
    const made = await createBackend(name, 'svcbackup');
    cleanups.push(() => made.cleanup());
    return made;
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'svc-backup-test-'));
    source = await fresh(backend.name);
    store = await source.openStore();
    await checkEncryptionKey(store, box, 'the test');
    const form = await createForm(store, { workspace: 'edge', project: 'site', slug: 'contact' });
    formId = form.formId;
    projectId = form.projectId;
    webhookId = (await createWebhook(store, form, { url: 'https://receiver.example/hook', encryptionKey: key, dataDir: source.dataDir, allowPrivateTargets: false })).id;
    await store.db.updateTable('webhooks').set({ enabled: 0 }).where('id', '=', webhookId).execute();
    await store.db.updateTable('projects').set({ environments: jsonText }).where('id', '=', projectId).execute();
    await store.db.updateTable('workspaces').set({ created_at: beyondDouble as unknown as number }).where('slug', '=', 'edge').execute();
    await store.db
      .updateTable('forms')
      .set({ captcha: 'turnstile', captcha_secret: box.seal('turnstile-secret', captchaSecretContext(formId)), name: oddText })
      .where('id', '=', formId)
      .execute();
    await store.db
      .insertInto('git_connections')
      .values({
        project_id: projectId,
        id: 'git_edge',
        repo_url: 'https://git.example/repo.git',
        token_sealed: box.seal('repo-token', repoTokenContext(projectId)),
        push_secret_sealed: box.seal(generatePushSecret(), pushSecretContext(projectId)),
        created_at: 1,
        updated_at: 2,
      })
      .execute();
    // One file held in a row, one stored on its own (disk or chunks), one of a single byte.
    for (const [bytes, holdUpTo] of [
      [allBytes, 1_024],
      [Buffer.concat([allBytes, randomBytes(300_000)]), 0],
      [Buffer.from([0]), 0],
    ] as const) {
      const staged = await store.files.stage(Readable.from([bytes]), { holdUpTo });
      await staged.commit();
    }
    archive = join(work, 'store.tar');
    made = await writeBackup({ dataDir: source.dataDir, databaseUrl: source.databaseUrl, out: archive, encryptionKey: parseEncryptionKey(key) });
  });
  afterAll(async () => {
    await store?.close();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('backs up every table the migrations made, but the ones left out on purpose, parents first', async () => {
    const tables = await tableNames(source);
    expect(Object.keys(made.tables).sort()).toEqual(tables.filter((name) => !Object.hasOwn(leftOutTables, name)).sort());
    // Each table left out is one the store has: a renamed or dropped table fails here.
    for (const name of Object.keys(leftOutTables)) if (!(backend.name === 'sqlite' && name === 'file_chunks')) expect(tables).toContain(name);
    const order = Object.keys(made.tables);
    expect(order.indexOf('workspaces')).toBeLessThan(order.indexOf('projects'));
    expect(order.indexOf('projects')).toBeLessThan(order.indexOf('forms'));
    expect(order.indexOf('forms')).toBeLessThan(order.indexOf('submissions'));
    expect(made.migration).toBe((await loadMigrations(backend.name)).at(-1)!.version);
    expect(made.tables[ledger]).toBe(made.migration);
    expect(made.keyFingerprint).toBe(keyIdOf(parseEncryptionKey(key)));
    expect(made.files).toBe(3);
  });

  it('holds the manifest last, a checksum for every member, and never the key', async () => {
    const found = await members(archive);
    expect(found.at(-1)!.name).toBe('manifest.json');
    const manifest = JSON.parse(found.at(-1)!.content.toString('utf8')) as { format: number; checksums: Record<string, string>; tables: Record<string, number> };
    expect(manifest.format).toBe(1);
    const others = found.slice(0, -1);
    expect(Object.keys(manifest.checksums).sort()).toEqual(others.map((member) => member.name).sort());
    for (const member of others) expect(createHash('sha256').update(member.content).digest('hex')).toBe(manifest.checksums[member.name]);
    const whole = await readFile(archive);
    expect(whole.includes(Buffer.from(key))).toBe(false);
    expect(whole.includes(Buffer.from(parseEncryptionKey(key)))).toBe(false);
    expect(whole.includes(Buffer.from('turnstile-secret'))).toBe(false);
    expect(whole.includes(Buffer.from('repo-token'))).toBe(false);
  });

  it(`restores onto ${other} exactly: bigints past 2^53, 0/1 flags, JSON text, odd text, every file's bytes; and back`, async () => {
    const target = await fresh(other);
    const restored = await restoreBackup({ archive, dataDir: target.dataDir, databaseUrl: target.databaseUrl, differentKey: false, encryptionKey: parseEncryptionKey(key) });
    expect(restored).toMatchObject({ migration: made.migration, migratedTo: made.migration, files: 3, differentKey: false, setAgain: [] });
    expect(await contents(target)).toEqual(await contents(source));

    const restoredStore = await target.openStore();
    try {
      const text = await sql<{ created: string; environments: string; enabled: string }>`
        select cast(w.created_at as text) as created, p.environments, cast(h.enabled as text) as enabled
        from workspaces w join projects p on p.workspace_id = w.id join webhooks h on h.project_id = p.id where w.slug = 'edge'`.execute(restoredStore.db);
      expect(text.rows).toEqual([{ created: beyondDouble.toString(), environments: jsonText, enabled: '0' }]);
      const form = await restoredStore.db.selectFrom('forms').select(['name', 'captcha_secret']).where('id', '=', formId).executeTakeFirstOrThrow();
      expect(form.name).toBe(oddText);
      // The same key opens what was sealed: the start-up check passes as it would for svc serve.
      await checkEncryptionKey(restoredStore, box, 'the test');
      expect(box.open(form.captcha_secret!, captchaSecretContext(formId))).toBe('turnstile-secret');
      for (const bytes of [allBytes, Buffer.from([0])]) {
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        const chunks: Buffer[] = [];
        for await (const chunk of (await restoredStore.files.open(sha256))!) chunks.push(chunk as Buffer);
        expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
      }
    } finally {
      await restoredStore.close();
    }

    // And back onto the first backend.
    const again = join(work, 'again.tar');
    await writeBackup({ dataDir: target.dataDir, databaseUrl: target.databaseUrl, out: again, encryptionKey: parseEncryptionKey(key) });
    const back = await fresh(backend.name);
    await restoreBackup({ archive: again, dataDir: back.dataDir, databaseUrl: back.databaseUrl, differentKey: false, encryptionKey: parseEncryptionKey(key) });
    expect(await contents(back)).toEqual(await contents(source));
  });

  it('refuses a truncated archive or one with an altered byte before writing anything', async () => {
    const whole = await readFile(archive);
    const cut = join(work, 'cut.tar');
    await writeFile(cut, whole);
    await truncate(cut, Math.floor(whole.length / 2));
    const altered = join(work, 'altered.tar');
    const changed = Buffer.from(whole);
    const at = changed.indexOf(Buffer.from('receiver.example'));
    expect(at).toBeGreaterThan(0);
    changed[at] = 'R'.charCodeAt(0);
    await writeFile(altered, changed);
    const noManifest = join(work, 'no-manifest.tar');
    await writeArchive(noManifest, (await members(archive)).slice(0, -1));
    for (const [path, message] of [
      [cut, /truncated|missing|no manifest/],
      [altered, /tables\/webhooks\.ndjson does not match its checksum/],
      [noManifest, /no manifest\.json/],
    ] as const) {
      const target = await fresh(other);
      await expect(restoreBackup({ archive: path, dataDir: target.dataDir, databaseUrl: target.databaseUrl, differentKey: false, encryptionKey: parseEncryptionKey(key) })).rejects.toMatchObject({
        code: 'archive_invalid',
        message: expect.stringMatching(message),
      });
      expect(await tableNames(target)).toEqual([]);
      if (other === 'sqlite') expect(await stat(join(target.dataDir, 'files')).catch(() => null)).toBeNull();
    }
  });

  it('refuses a store that is not empty, and an archive of a newer format or migration, with a message', async () => {
    const occupied = await fresh(other);
    await (await occupied.openStore()).close();
    await restoreBackup({ archive, dataDir: occupied.dataDir, databaseUrl: occupied.databaseUrl, differentKey: false, encryptionKey: parseEncryptionKey(key) });
    await expect(restoreBackup({ archive, dataDir: occupied.dataDir, databaseUrl: occupied.databaseUrl, differentKey: false, encryptionKey: parseEncryptionKey(key) })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('not an empty store'),
    });
    const found = await members(archive);
    const manifest = JSON.parse(found.at(-1)!.content.toString('utf8')) as Record<string, unknown>;
    for (const [change, message] of [
      [{ format: 2 }, /format 2.*up to 1/],
      [{ migration: 999 }, /migration 999/],
    ] as const) {
      const newer = join(work, `newer-${Object.keys(change)[0]}.tar`);
      await writeArchive(newer, [...found.slice(0, -1), { name: 'manifest.json', content: Buffer.from(JSON.stringify({ ...manifest, ...change })) }]);
      const target = await fresh(other);
      await expect(restoreBackup({ archive: newer, dataDir: target.dataDir, databaseUrl: target.databaseUrl, differentKey: false, encryptionKey: parseEncryptionKey(key) })).rejects.toMatchObject({
        code: 'archive_too_new',
        message: expect.stringMatching(message),
      });
      expect(await tableNames(target)).toEqual([]);
    }
  });

  it('restores an archive of an older migration level at its level, then migrates it', async () => {
    const old = await fresh(backend.name);
    const level = (await loadMigrations(backend.name)).at(-1)!.version - 3;
    const oldStore = await openStore({ dataDir: old.dataDir, databaseUrl: old.databaseUrl, migrateUpTo: level });
    try {
      // Written as that level's schema has it (the code of today writes today's).
      await sql`insert into workspaces (id, slug, created_at) values ('ws_older', 'older', 1)`.execute(oldStore.db);
    } finally {
      await oldStore.close();
    }
    const path = join(work, 'older.tar');
    const older = await writeBackup({ dataDir: old.dataDir, databaseUrl: old.databaseUrl, out: path });
    expect(older.migration).toBe(level);
    const target = await fresh(other);
    const restored = await restoreBackup({ archive: path, dataDir: target.dataDir, databaseUrl: target.databaseUrl, differentKey: false });
    expect(restored).toMatchObject({ migration: level, migratedTo: level + 3 });
    const restoredStore = await target.openStore();
    try {
      expect(await restoredStore.db.selectFrom('workspaces').select('slug').execute()).toEqual([{ slug: 'older' }]);
      expect(Number((await restoredStore.db.selectFrom('svc_migrations' as never).select(sql<number>`max(version)`.as('top')).executeTakeFirstOrThrow()).top)).toBe(level + 3);
    } finally {
      await restoredStore.close();
    }
  });

  it('refuses another key unless --different-key, which sets the sealed secrets again and lists them', async () => {
    const otherKey = newEncryptionKey();
    const refused = await fresh(other);
    await expect(restoreBackup({ archive, dataDir: refused.dataDir, databaseUrl: refused.databaseUrl, differentKey: false, encryptionKey: parseEncryptionKey(otherKey) })).rejects.toMatchObject({
      code: 'key_mismatch',
      message: expect.stringContaining(made.keyFingerprint!),
    });
    expect(await tableNames(refused)).toEqual([]);

    const target = await fresh(other);
    const restored = await restoreBackup({ archive, dataDir: target.dataDir, databaseUrl: target.databaseUrl, differentKey: true, encryptionKey: parseEncryptionKey(otherKey) });
    expect(restored.differentKey).toBe(true);
    expect(restored.setAgain.map((item) => [item.kind, item.id])).toEqual(
      expect.arrayContaining([
        ['webhook', webhookId],
        ['git', projectId],
        ['captcha', formId],
      ]),
    );
    expect(restored.setAgain).toHaveLength(3);
    const newBox = new SecretBox(parseEncryptionKey(otherKey));
    const restoredStore = await target.openStore();
    try {
      // svc serve with the new key starts: every sealed secret opens, the canary is its own.
      await checkEncryptionKey(restoredStore, newBox, 'the test');
      const webhook = await restoredStore.db.selectFrom('webhooks').select(['secret', 'previous_secret']).where('id', '=', webhookId).executeTakeFirstOrThrow();
      expect(newBox.open(webhook.secret, signingSecretContext(webhookId))).toMatch(/^whsec_/);
      const git = await restoredStore.db.selectFrom('git_connections').select(['token_sealed', 'push_secret_sealed']).executeTakeFirstOrThrow();
      expect(git.token_sealed).toBeNull();
      expect(newBox.open(git.push_secret_sealed, pushSecretContext(projectId))).toMatch(/^ghsec_/);
      const form = await restoredStore.db.selectFrom('forms').select('captcha_secret').where('id', '=', formId).executeTakeFirstOrThrow();
      expect(form.captcha_secret).toBeNull();
    } finally {
      await restoredStore.close();
    }
  });

  it('keeps the archive it replaces until the new one is whole', async () => {
    const path = join(work, 'replace.tar');
    await writeFile(path, 'an older archive');
    await expect(writeBackup({ dataDir: join(work, 'no-store-here'), out: path })).rejects.toMatchObject({ code: 'file_not_found', message: expect.stringContaining('no store in') });
    expect(await readFile(path, 'utf8')).toBe('an older archive');
    await writeBackup({ dataDir: source.dataDir, databaseUrl: source.databaseUrl, out: path });
    expect(await sha256Of(path)).not.toBe(createHash('sha256').update('an older archive').digest('hex'));
  });

  it('moves a PostgreSQL identity sequence past the ids a restore wrote', async () => {
    const pg = await fresh('postgres');
    const pgStore = await pg.openStore();
    try {
      await sql`create table restored_identity (id bigint generated by default as identity primary key, note text)`.execute(pgStore.db);
      await sql`insert into restored_identity (id, note) values (41, 'restored')`.execute(pgStore.db);
      await pgStore.catalog.resetSequences();
      const { rows } = await sql<{ id: number }>`insert into restored_identity (note) values ('new') returning id`.execute(pgStore.db);
      expect(Number(rows[0]!.id)).toBe(42);
    } finally {
      await pgStore.close();
    }
  });

  it('leaves a store whose restore failed part-way empty, so the restore can be run again', async () => {
    const found = await members(archive);
    const manifest = JSON.parse(found.at(-1)!.content.toString('utf8')) as { checksums: Record<string, string> };
    // A webhook of a project the archive does not have: the checksums agree, the foreign key does not.
    const broken = found.slice(0, -1).map((member) =>
      member.name === 'tables/webhooks.ndjson' ? { name: member.name, content: Buffer.from(member.content.toString('utf8').replace(/"project_id":"[^"]+"/, '"project_id":"prj_gone"')) } : member,
    );
    for (const member of broken) manifest.checksums[member.name] = createHash('sha256').update(member.content).digest('hex');
    const path = join(work, 'broken-key.tar');
    await writeArchive(path, [...broken, { name: 'manifest.json', content: Buffer.from(JSON.stringify(manifest)) }]);
    const target = await fresh(other);
    await expect(restoreBackup({ archive: path, dataDir: target.dataDir, databaseUrl: target.databaseUrl, differentKey: false, encryptionKey: parseEncryptionKey(key) })).rejects.toMatchObject({
      code: 'archive_invalid',
      message: expect.stringContaining('of table webhooks cannot be written'),
    });
    await restoreBackup({ archive, dataDir: target.dataDir, databaseUrl: target.databaseUrl, differentKey: false, encryptionKey: parseEncryptionKey(key) });
    expect(await contents(target)).toEqual(await contents(source));
  });
});
