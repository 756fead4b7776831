import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceError } from '@svc/protocol';
import { encryptionKeyFileName, parseEncryptionKey } from '../secrets/encryption-key.js';
import { keyIdOf } from '../secrets/secret-box.js';

/** The key id a sealed value (`enc1.<key id>.…`, secrets/secret-box.ts) names, or null for any other text. */
export function sealedKeyId(value: string): string | null {
  return /^enc1\.([0-9a-f]{12})\./.exec(value)?.[1] ?? null;
}

/**
 * The server's key as `svc serve` finds it (docs/server.md): the one given (SVC_ENCRYPTION_KEY),
 * else `<data dir>/encryption.key` when it exists; null when there is none. Never creates one.
 */
export async function findEncryptionKey(given: Uint8Array | undefined, dataDir: string | undefined): Promise<Uint8Array | null> {
  if (given !== undefined) return given;
  if (dataDir === undefined) return null;
  const path = join(dataDir, encryptionKeyFileName);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return parseEncryptionKey(text);
  } catch (error) {
    throw new ServiceError('file_unreadable', `cannot use the key file ${path}: ${(error as Error).message}`);
  }
}

/**
 * The fingerprint an archive records: the key id the store's canary was sealed with (the key
 * its secrets are sealed with), checked against the key given when there is one; else that
 * key's; null for a store that never had a key.
 */
export function archiveKeyFingerprint(canary: string | null, key: Uint8Array | null): string | null {
  const sealedWith = canary === null ? null : sealedKeyId(canary);
  const given = key === null ? null : keyIdOf(key);
  if (sealedWith !== null && given !== null && sealedWith !== given) {
    throw new ServiceError('key_mismatch', `the store's secrets are sealed with key ${sealedWith}, not with the key given (${given}): give svc backup the key the server uses, or none`);
  }
  return sealedWith ?? given;
}
