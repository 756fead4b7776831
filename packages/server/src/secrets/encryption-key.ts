import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export const encryptionKeyFileName = 'encryption.key';
const keyBytes = 32;
const base64Text = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** SVC_ENCRYPTION_KEY: base64 (or base64url) of exactly 32 bytes, e.g. `openssl rand -base64 32`. */
export function parseEncryptionKey(text: string): Uint8Array {
  const trimmed = text.trim();
  const key = base64Text.test(trimmed) ? Buffer.from(trimmed, 'base64') : Buffer.alloc(0);
  if (key.length !== keyBytes) {
    throw new Error(`the encryption key must be base64 of ${keyBytes} random bytes (make one with: openssl rand -base64 32)`);
  }
  return new Uint8Array(key);
}

export interface LoadedEncryptionKey {
  readonly key: Uint8Array;
  /** Where it came from, for messages: `SVC_ENCRYPTION_KEY` or the key file's path. */
  readonly source: string;
  /** True when this call created the key file. */
  readonly created: boolean;
  /** Set when the key file can be read by other users. */
  readonly warning: string | null;
}

/**
 * The key that encrypts webhook signing secrets at rest: the one given (SVC_ENCRYPTION_KEY),
 * else `<data dir>/encryption.key`, created with mode 0600 on first use. Instances that
 * share a database must share the key, so they must be given SVC_ENCRYPTION_KEY.
 */
export async function loadEncryptionKey(options: { encryptionKey: Uint8Array | undefined; dataDir: string }): Promise<LoadedEncryptionKey> {
  if (options.encryptionKey !== undefined) {
    if (options.encryptionKey.length !== keyBytes) throw new Error(`SVC_ENCRYPTION_KEY must be ${keyBytes} bytes, not ${options.encryptionKey.length}`);
    return { key: options.encryptionKey, source: 'SVC_ENCRYPTION_KEY', created: false, warning: null };
  }
  const path = join(options.dataDir, encryptionKeyFileName);
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const created = await createKeyFile(path);
  let key: Uint8Array;
  try {
    key = parseEncryptionKey(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot use the key file ${path}: ${(error as Error).message}`, { cause: error });
  }
  const mode = (await stat(path)).mode & 0o777;
  const warning = mode & 0o077 ? `the key file ${path} can be read by other users (mode ${mode.toString(8)}); chmod 600 it` : null;
  return { key, source: path, created, warning };
}

/**
 * Writes a fresh key unless the file exists. The key is written and fsync'd under a temporary
 * name, then linked into place (which fails if the file exists): a crash never leaves a
 * half-written key file, and starts that race agree on one key.
 */
async function createKeyFile(path: string): Promise<boolean> {
  if (await exists(path)) return false;
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${randomBytes(keyBytes).toString('base64')}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await chmod(temporary, 0o600);
    await link(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
