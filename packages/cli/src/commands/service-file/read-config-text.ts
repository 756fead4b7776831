import { readFile } from 'node:fs/promises';
import { ServiceError } from '@svc/protocol';

/**
 * The text of a configuration file, decoded as UTF-8. A missing file is `file_not_found`;
 * a directory, a file without permission or text that is not UTF-8 is `file_unreadable`.
 * `shownAs` is the name the user gave, used in messages.
 */
export async function readConfigText(absolutePath: string, shownAs: string, hint?: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(absolutePath);
  } catch (error) {
    throw readError(error, shownAs, hint);
  }
  // Windows PowerShell's `>` writes UTF-16 with a byte order mark.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new ServiceError('file_unreadable', `${shownAs} is encoded as UTF-16; save it as UTF-8`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw new ServiceError('file_unreadable', `${shownAs} is not valid UTF-8 text`, undefined, { cause: error });
  }
}

function readError(error: unknown, shownAs: string, hint: string | undefined): ServiceError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new ServiceError('file_not_found', `${shownAs} does not exist${hint ? `; ${hint}` : ''}`, undefined, { cause: error });
    case 'EISDIR':
      return new ServiceError('file_unreadable', `${shownAs} is a directory, not a file`, undefined, { cause: error });
    case 'EACCES':
    case 'EPERM':
      return new ServiceError('file_unreadable', `cannot read ${shownAs}: permission denied`, undefined, { cause: error });
    default:
      return new ServiceError('file_unreadable', `cannot read ${shownAs}: ${error instanceof Error ? error.message : String(error)}`, undefined, {
        cause: error,
      });
  }
}
