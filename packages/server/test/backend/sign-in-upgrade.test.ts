import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnvironment, newEncryptionKey, operationContext, selectBackend, type TestEnvironment } from '@svc/testkit';
import { hashToken } from '../../src/auth/token-secrets.js';
import type { OperationContext } from '../../src/operations/context.js';
import { listMembers } from '../../src/operations/members.js';
import { describeLink, spendLink } from '../../src/operations/sign-in-links.js';
import { resumeSession } from '../../src/settings/session/session-store.js';
import { ledgerTable, loadMigrations } from '../../src/store/migrations.js';
import { sqliteFileName } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();

/** The last migration before one sessions table and one table of one-time links. */
const before = 18;

/** Applies the migrations up to `version` as the store does, recorded in its ledger, then runs `sql`. */
async function migrateTo(environment: TestEnvironment, version: number, sql: string): Promise<void> {
  const migrations = (await loadMigrations(backend.name)).filter((migration) => migration.version <= version);
  const ledger = `CREATE TABLE ${ledgerTable} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at BIGINT NOT NULL)`;
  const recorded = migrations.map((migration) => `INSERT INTO ${ledgerTable} VALUES (${migration.version}, '${migration.name}', '${migration.checksum}', 0);`).join('\n');
  const script = [ledger, ...migrations.map((migration) => migration.sql), recorded, sql].join(';\n');
  if (environment.databaseUrl === undefined) {
    const database = new Database(join(environment.dataDir, sqliteFileName));
    database.exec(`BEGIN; ${script}; COMMIT;`);
    database.close();
    return;
  }
  const client = new pg.Client({ connectionString: environment.databaseUrl });
  await client.connect();
  try {
    await client.query(`BEGIN; ${script}; COMMIT;`);
  } finally {
    await client.end();
  }
}

/** What a user holds: the cookie values and link secrets; the database holds their SHA-256. */
const held = { tokenSession: 'token-session-before-0019', personSession: 'person-session-before-0019', open: 'open-link-before-0019', invite: 'invite-link-before-0019', email: 'email-link-before-0019' };

/**
 * Issue 38: the upgrade to one sessions table and one table of one-time links keeps every
 * live session and link working. Sessions and links are made in the tables of migration
 * 0018, then the store opens (and migrates) and the code of now uses them.
 */
describe.runIf(backend.available)(`sessions and links made before migration 0019 work after it on ${backend.name}`, () => {
  let environment: TestEnvironment;
  let store: Store;
  let context: OperationContext;
  const now = Date.now();
  const later = now + 60 * 60 * 1000;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    const h = (secret: string) => `'${hashToken(secret)}'`;
    await migrateTo(
      environment,
      before,
      `INSERT INTO workspaces (id, slug, created_at) VALUES ('ws_acme', 'acme', ${now}), ('ws_globex', 'globex', ${now});
       INSERT INTO tokens (id, name, token_hash, workspace_id, created_at) VALUES ('tok_acme', 'acme ci', 'not-a-real-hash', 'ws_acme', ${now});
       INSERT INTO people (id, email, name, created_at) VALUES ('per_sam', 'sam@agency.example', 'Sam', ${now}), ('per_lee', 'lee@agency.example', NULL, ${now});
       INSERT INTO members (id, person_id, workspace_id, role, status, created_at) VALUES ('mem_sam', 'per_sam', 'ws_acme', 'owner', 'active', ${now}), ('mem_lee', 'per_lee', 'ws_globex', 'member', 'invited', ${now});
       INSERT INTO sessions (id_hash, token_id, created_at, last_seen_at, expires_at) VALUES (${h(held.tokenSession)}, 'tok_acme', ${now}, ${now}, ${later});
       INSERT INTO person_sessions (id_hash, person_id, created_at, last_seen_at, expires_at) VALUES (${h(held.personSession)}, 'per_sam', ${now}, ${now}, ${later});
       INSERT INTO sign_in_links (id_hash, token_id, created_at, expires_at) VALUES (${h(held.open)}, 'tok_acme', ${now}, ${later});
       INSERT INTO person_links (id_hash, person_id, member_id, purpose, created_at, expires_at) VALUES
         (${h(held.invite)}, 'per_lee', 'mem_lee', 'invite', ${now}, ${later}),
         (${h(held.email)}, 'per_sam', NULL, 'email', ${now}, ${later})`,
    );
    store = await environment.openStore();
    context = operationContext(store, { dataDir: environment.dataDir, encryptionKey: parseEncryptionKey(newEncryptionKey()) });
  });
  afterAll(async () => {
    await store?.close();
    await environment?.cleanup();
  });

  it('a token session and a person session resume as they were', async () => {
    expect((await resumeSession(context, held.tokenSession))?.principal).toEqual({ kind: 'token', tokenId: 'tok_acme', workspaceId: 'ws_acme', name: 'acme ci', ip: null });
    expect((await resumeSession(context, held.personSession))?.principal).toEqual({
      kind: 'person',
      personId: 'per_sam',
      email: 'sam@agency.example',
      memberships: [{ memberId: 'mem_sam', workspaceId: 'ws_acme', role: 'owner', name: 'Sam' }],
      limitedTo: null,
      ip: null,
    });
  });

  it("svc open's link signs in with its token, once", async () => {
    expect(await describeLink(context, 'open', held.open)).toMatchObject({ purpose: 'open', tokenName: 'acme ci', workspace: 'acme' });
    expect(await spendLink(context, 'open', held.open)).toEqual({ kind: 'token', tokenId: 'tok_acme' });
    expect(await spendLink(context, 'open', held.open)).toBeNull();
  });

  it('an invite signs in as the inviter saw it, to its workspace only, and the member joins', async () => {
    expect(await describeLink(context, 'invite', held.invite)).toMatchObject({ purpose: 'invite', email: 'lee@agency.example', workspace: 'globex', reach: 'workspace' });
    expect(await spendLink(context, 'invite', held.invite)).toEqual({ kind: 'person', personId: 'per_lee', limitedTo: 'ws_globex' });
    expect((await listMembers(context, { tokenId: 'tok_admin', workspaceId: null }, { workspace: 'globex' }))[0]).toMatchObject({ email: 'lee@agency.example', name: 'lee', status: 'active' });
  });

  it('an emailed sign-in link signs in as the person', async () => {
    expect(await describeLink(context, 'email', held.email)).toMatchObject({ purpose: 'email', email: 'sam@agency.example', workspace: null, reach: 'person' });
    expect(await spendLink(context, 'email', held.email)).toEqual({ kind: 'person', personId: 'per_sam', limitedTo: null });
  });

  it("keeps each person's name in their membership", async () => {
    expect((await listMembers(context, { tokenId: 'tok_admin', workspaceId: null }, { workspace: 'acme' }))[0]).toMatchObject({ email: 'sam@agency.example', name: 'Sam' });
  });
});
