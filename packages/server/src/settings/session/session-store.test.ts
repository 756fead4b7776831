import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OperationContext } from '../../operations/context.js';
import { createSignInLink, signInLinkLifetimeMs, spendLink } from '../../operations/sign-in-links.js';
import { openStore } from '../../store/open-store.js';
import { deleteExpiredSessions } from '../../store/queries/sessions.js';
import { insertToken, revokeToken } from '../../store/queries/tokens.js';
import type { Store } from '../../store/store.js';
import { endSession, resumeSession, sessionIdleMs, sessionMaxMs, startSession } from './session-store.js';

describe('settings sessions and sign-in links', () => {
  let directory: string;
  let store: Store;
  let clock: number;
  let context: OperationContext;
  let tokenId: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'svc-sessions-'));
    store = await openStore({ dataDir: directory });
    clock = Date.UTC(2026, 0, 1);
    context = { store, now: () => clock, urls: { baseUrl: 'http://svc.test', formsUrl: 'http://svc.test' } } as unknown as OperationContext;
    tokenId = (await insertToken(store.db, { name: 'ws', tokenHash: 'a'.repeat(64), workspaceId: null }, clock)).id;
  });
  afterEach(async () => {
    await store.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('resumes a session with the scope and name of its token and a stable CSRF token', async () => {
    const id = await startSession(context, { kind: 'token', tokenId });
    const first = await resumeSession(context, id);
    const second = await resumeSession(context, id);
    expect(first?.principal).toEqual({ kind: 'token', tokenId, workspaceId: null, name: 'ws', ip: null });
    expect(first?.csrfToken).toBe(second?.csrfToken);
    expect(await resumeSession(context, `${id}x`)).toBeNull();
  });

  it('ends a session after 12 hours without a request, but not while it is used', async () => {
    const id = await startSession(context, { kind: 'token', tokenId });
    clock += sessionIdleMs - 60_000;
    expect(await resumeSession(context, id)).not.toBeNull();
    clock += sessionIdleMs - 60_000;
    expect(await resumeSession(context, id)).not.toBeNull();
    clock += sessionIdleMs;
    expect(await resumeSession(context, id)).toBeNull();
  });

  it('ends a session after 7 days however much it is used', async () => {
    const id = await startSession(context, { kind: 'token', tokenId });
    for (let elapsed = 0; elapsed < sessionMaxMs - sessionIdleMs; elapsed += sessionIdleMs / 2) {
      clock += sessionIdleMs / 2;
      expect(await resumeSession(context, id)).not.toBeNull();
    }
    clock += sessionIdleMs;
    expect(await resumeSession(context, id)).toBeNull();
  });

  it('ends a session on sign out and when its token is revoked', async () => {
    const signedOut = await startSession(context, { kind: 'token', tokenId });
    await endSession(context, signedOut);
    expect(await resumeSession(context, signedOut)).toBeNull();
    const revoked = await startSession(context, { kind: 'token', tokenId });
    await revokeToken(store.db, tokenId, clock);
    expect(await resumeSession(context, revoked)).toBeNull();
  });

  it('spends a sign-in link once, within 5 minutes, for a live token', async () => {
    const principal = { tokenId, workspaceId: null };
    const secretOf = (url: string) => url.split('/').at(-1)!;
    const once = secretOf((await createSignInLink(context, principal)).url);
    expect(await spendLink(context, 'open', once)).toEqual({ kind: 'token', tokenId });
    expect(await spendLink(context, 'open', once)).toBeNull();

    const late = secretOf((await createSignInLink(context, principal)).url);
    clock += signInLinkLifetimeMs;
    expect(await spendLink(context, 'open', late)).toBeNull();

    const orphan = secretOf((await createSignInLink(context, principal)).url);
    await revokeToken(store.db, tokenId, clock);
    expect(await spendLink(context, 'open', orphan)).toBeNull();
  });

  it('clears sessions and links that can no longer be used, and keeps live ones', async () => {
    const live = await startSession(context, { kind: 'token', tokenId });
    const idle = await startSession(context, { kind: 'token', tokenId });
    await createSignInLink(context, { tokenId, workspaceId: null });
    clock += sessionIdleMs - 1_000;
    expect(await resumeSession(context, live)).not.toBeNull();
    const fresh = (await createSignInLink(context, { tokenId, workspaceId: null })).url.split('/').at(-1)!;
    clock += 2_000;
    const removed = await deleteExpiredSessions(store.db, clock, clock - sessionIdleMs);
    expect(removed).toBe(2);
    expect(await resumeSession(context, live)).not.toBeNull();
    expect(await resumeSession(context, idle)).toBeNull();
    expect(await spendLink(context, 'open', fresh)).toEqual({ kind: 'token', tokenId });
  });
});

