import { ensureEncryptionCanary } from './store/queries/encryption-canary.js';
import { listSealedSecrets } from './store/queries/webhooks.js';
import type { Store } from './store/store.js';
import { SecretBoxError, type SecretBox } from './secrets/secret-box.js';
import { signingSecretContext } from './webhooks/signing-secret.js';

const canaryContext = 'encryption-canary';
const canaryText = 'svc encryption canary';

/**
 * Refuses to run with a key that cannot open what the database holds: the canary written by
 * the first start, and every stored signing secret. The first start writes the canary, so a
 * second instance with its own key fails here before it makes secrets nobody else can open.
 */
export async function checkEncryptionKey(store: Store, box: SecretBox, keySource: string, now = Date.now()): Promise<void> {
  // Secrets first: a wrong key must be refused before it could write the canary of an empty one.
  for (const row of await listSealedSecrets(store.db)) {
    try {
      box.open(row.secret, signingSecretContext(row.id));
      if (row.previous_secret !== null) box.open(row.previous_secret, signingSecretContext(row.id));
    } catch (error) {
      throw wrongKey(error, box, keySource, `the signing secret of webhook ${row.id} cannot be decrypted`);
    }
  }
  const canary = await ensureEncryptionCanary(store.db, box.seal(canaryText, canaryContext), now);
  try {
    if (box.open(canary, canaryContext) !== canaryText) throw new SecretBoxError('tampered', 'the canary does not match');
  } catch (error) {
    throw wrongKey(error, box, keySource, 'this database was set up with another encryption key');
  }
}

function wrongKey(error: unknown, box: SecretBox, keySource: string, what: string): Error {
  const sealedWith = error instanceof SecretBoxError && error.sealedWithKeyId !== null ? `key id ${error.sealedWithKeyId}` : 'another key';
  return new Error(
    `${what}: it was encrypted with ${sealedWith}, but this server's key (from ${keySource}) has id ${box.keyId}. ` +
      'Start with the SVC_ENCRYPTION_KEY the secrets were encrypted with; every instance that shares the database must use the same key.',
    { cause: error },
  );
}
