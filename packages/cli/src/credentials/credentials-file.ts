import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ServiceError } from '@svc/protocol';

export interface SavedCredentials {
  readonly apiUrl: string;
  readonly token: string;
}

/** The saved credentials, or null when `svc login` has not saved any. */
export async function readCredentials(path: string): Promise<SavedCredentials | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ServiceError('file_unreadable', `cannot read the credentials in ${path}: ${(error as Error).message}`, undefined, { cause: error });
  }
  try {
    const value = JSON.parse(text) as Partial<SavedCredentials> | null;
    if (typeof value?.apiUrl === 'string' && typeof value.token === 'string') return { apiUrl: value.apiUrl, token: value.token };
  } catch {
    // Reported below.
  }
  throw new ServiceError('file_unreadable', `${path} is not a credentials file written by \`svc login\`; run \`svc login\` again`);
}

/**
 * Saves credentials readable by the user only (0600, in a 0700 directory). The file is
 * written beside its final name and renamed over it, so it is never seen half-written.
 */
export async function writeCredentials(path: string, credentials: SavedCredentials): Promise<void> {
  const directory = dirname(path);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify({ apiUrl: credentials.apiUrl, token: credentials.token }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new ServiceError('file_unreadable', `cannot save the credentials in ${path}: ${(error as Error).message}`, undefined, { cause: error });
  }
}
