import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '@svc/protocol';
import { adminPrincipal, newEncryptionKey, operationContext, selectBackend } from '@svc/testkit';
import { useBackendStore } from '@svc/testkit/vitest';
import { revokeToken } from '../../src/operations/tokens.js';
import { countActiveAdminTokens, insertToken } from '../../src/store/queries/tokens.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();

describe.runIf(backend.available)(`revoking admin tokens at the same moment on ${backend.name}`, () => {
  const suite = useBackendStore();

  it('never leaves the service without a working admin token', async () => {
    const context = operationContext(suite.store, { dataDir: suite.environment.dataDir, encryptionKey: parseEncryptionKey(newEncryptionKey()) });
    for (let round = 0; round < 10; round++) {
      const tokens = await Promise.all(
        ['a', 'b'].map((name) => insertToken(suite.store.db, { name: `${name}-${round}`, tokenHash: randomBytes(32).toString('hex'), workspaceId: null })),
      );
      // Only these two are left working.
      const others = (await suite.store.db.selectFrom('tokens').select('id').where('workspace_id', 'is', null).where('revoked_at', 'is', null).execute())
        .map((row) => row.id)
        .filter((id) => !tokens.some((token) => token.id === id));
      for (const id of others) await revokeToken(context, adminPrincipal, { id });

      const outcomes = await Promise.allSettled(tokens.map((token) => revokeToken(context, adminPrincipal, { id: token.id })));
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((outcome) => outcome.status === 'rejected');
      expect(refused?.reason).toBeInstanceOf(ServiceError);
      expect((refused?.reason as ServiceError).code).toBe('conflict');
      expect(await countActiveAdminTokens(suite.store.db, suite.store.capabilities)).toBe(1);
    }
  });
});
