import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceError } from '@svc/protocol';

/** The configuration file every project command reads: `./service.json`. */
export const serviceFileName = 'service.json';

export function serviceFilePath(cwd: string): string {
  return join(cwd, serviceFileName);
}

/** service.json as written by the CLI: two-space indentation and a final newline. */
export function serviceFileText(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The file's text, or null when there is none. */
export async function readServiceFileText(cwd: string): Promise<string | null> {
  try {
    return await readFile(serviceFilePath(cwd), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new ServiceError('file_unreadable', `cannot read ${serviceFileName}: ${(error as Error).message}`, undefined, { cause: error });
  }
}

/**
 * Writes ./service.json. Without `overwrite` an existing file is never replaced
 * (`file_exists`, even if it appeared a moment ago); with it the new text is written beside
 * the file and renamed over it, so the file is never half-written.
 */
export async function writeServiceFile(cwd: string, document: unknown, overwrite: boolean): Promise<string> {
  const path = serviceFilePath(cwd);
  const text = serviceFileText(document);
  if (!overwrite) {
    try {
      await writeFile(path, text, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw fileExists();
      throw new ServiceError('file_unreadable', `cannot write ${serviceFileName}: ${(error as Error).message}`, undefined, { cause: error });
    }
    return path;
  }
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, text, { flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new ServiceError('file_unreadable', `cannot write ${serviceFileName}: ${(error as Error).message}`, undefined, { cause: error });
  }
  return path;
}

export function fileExists(): ServiceError {
  return new ServiceError('file_exists', `${serviceFileName} already exists here; pass --force to overwrite it`);
}
