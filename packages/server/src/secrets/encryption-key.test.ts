import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encryptionKeyFileName, loadEncryptionKey, parseEncryptionKey } from './encryption-key.js';

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-key-'));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('parseEncryptionKey', () => {
  it('reads base64 and base64url of 32 bytes', () => {
    const key = randomBytes(32);
    expect(Buffer.from(parseEncryptionKey(key.toString('base64'))).equals(key)).toBe(true);
    expect(Buffer.from(parseEncryptionKey(`${key.toString('base64url')}\n`)).equals(key)).toBe(true);
  });

  it.each(['', 'short', randomBytes(16).toString('base64'), randomBytes(33).toString('base64'), `${randomBytes(32).toString('base64')}!`])('refuses %j', (text) => {
    expect(() => parseEncryptionKey(text)).toThrow(/base64 of 32 random bytes/);
  });
});

describe('loadEncryptionKey', () => {
  it('prefers the key it is given and writes no file', async () => {
    const dataDir = await tempDir();
    const key = randomBytes(32);
    const loaded = await loadEncryptionKey({ encryptionKey: key, dataDir });
    expect(loaded).toMatchObject({ key, source: 'SVC_ENCRYPTION_KEY', created: false });
    await expect(stat(join(dataDir, encryptionKeyFileName))).rejects.toThrow();
  });

  it('creates <data dir>/encryption.key with mode 0600 on first use, then reads it back', async () => {
    const dataDir = join(await tempDir(), 'nested');
    const first = await loadEncryptionKey({ encryptionKey: undefined, dataDir });
    const path = join(dataDir, encryptionKeyFileName);
    expect(first).toMatchObject({ source: path, created: true, warning: null });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(Buffer.from(parseEncryptionKey(await readFile(path, 'utf8'))).equals(Buffer.from(first.key))).toBe(true);
    const second = await loadEncryptionKey({ encryptionKey: undefined, dataDir });
    expect(second.created).toBe(false);
    expect(Buffer.from(second.key).equals(Buffer.from(first.key))).toBe(true);
  });

  it('agrees on one key when starts race', async () => {
    const dataDir = await tempDir();
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadEncryptionKey({ encryptionKey: undefined, dataDir })));
    expect(new Set(keys.map(({ key }) => Buffer.from(key).toString('hex'))).size).toBe(1);
    expect(keys.filter(({ created }) => created)).toHaveLength(1);
  });

  it('refuses a damaged key file and warns about one others can read', async () => {
    const dataDir = await tempDir();
    const path = join(dataDir, encryptionKeyFileName);
    await writeFile(path, 'not a key', { mode: 0o600 });
    await expect(loadEncryptionKey({ encryptionKey: undefined, dataDir })).rejects.toThrow(/cannot use the key file .*encryption\.key/);
    await writeFile(path, randomBytes(32).toString('base64'));
    await chmod(path, 0o644);
    const loaded = await loadEncryptionKey({ encryptionKey: undefined, dataDir });
    expect(loaded.warning).toMatch(/can be read by other users/);
  });
});
