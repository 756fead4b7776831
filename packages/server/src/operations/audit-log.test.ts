import { describe, expect, it } from 'vitest';
import type { Db } from '../store/store.js';
import { auditActor, mayReadAuditLog, requireAuditReader, systemActor } from './audit-log.js';
import type { PersonPrincipal, TokenPrincipal } from './context.js';

const person: PersonPrincipal = {
  kind: 'person',
  personId: 'per_1',
  email: 'sam@example.com',
  memberships: [
    { memberId: 'mem_owner', workspaceId: 'ws_acme', role: 'owner', name: 'Sam Okafor' },
    { memberId: 'mem_member', workspaceId: 'ws_globex', role: 'member', name: 'Sam O.' },
  ],
  limitedTo: null,
};
const workspaceToken: TokenPrincipal = { tokenId: 'tok_ci', workspaceId: 'ws_acme', name: 'CI deploys' };
const adminToken: TokenPrincipal = { kind: 'token', tokenId: 'tok_admin', workspaceId: null, name: 'ops' };
const noDatabase = {} as Db;

describe('who the audit log names', () => {
  it('names a person as the member of the workspace where they acted, by their name there', async () => {
    expect(await auditActor(noDatabase, person, 'ws_acme')).toEqual({ type: 'member', id: 'mem_owner', name: 'Sam Okafor' });
    expect(await auditActor(noDatabase, person, 'ws_globex')).toEqual({ type: 'member', id: 'mem_member', name: 'Sam O.' });
    // Outside a workspace of theirs: the person, by the part of their address before @.
    expect(await auditActor(noDatabase, person, null)).toEqual({ type: 'member', id: 'per_1', name: 'sam' });
  });

  it('names a token by the name it carries', async () => {
    expect(await auditActor(noDatabase, workspaceToken, 'ws_acme')).toEqual({ type: 'token', id: 'tok_ci', name: 'CI deploys' });
    expect(await auditActor(noDatabase, adminToken, null)).toEqual({ type: 'token', id: 'tok_admin', name: 'ops' });
  });

  it('names the service itself as the system', () => {
    expect(systemActor('hook_1', 'git push')).toEqual({ type: 'system', id: 'hook_1', name: 'git push' });
  });
});

describe('who reads the audit log', () => {
  it('lets admin tokens, the workspace\'s tokens and its owners read it', () => {
    expect(mayReadAuditLog(adminToken, 'ws_acme')).toBe(true);
    expect(mayReadAuditLog(workspaceToken, 'ws_acme')).toBe(true);
    expect(mayReadAuditLog(person, 'ws_acme')).toBe(true);
  });

  it('refuses members with forbidden, and tokens of other workspaces', () => {
    expect(mayReadAuditLog(person, 'ws_globex')).toBe(false);
    expect(() => requireAuditReader(person, 'ws_globex')).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(mayReadAuditLog(workspaceToken, 'ws_globex')).toBe(false);
    expect(mayReadAuditLog(person, 'ws_initech')).toBe(false);
  });
});
