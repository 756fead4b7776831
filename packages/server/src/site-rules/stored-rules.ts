import type { RulesFileReader } from '@svc/protocol/site-rules';
import type { FileStore } from '../store/files/file-store.js';

/**
 * A reader of a deploy's rules files from the file store, for `readSiteRules`: `contentOf`
 * names the stored contents of a path of the deploy (its SHA-256), or nothing when the
 * deploy has no such file. Only the start of a file past its limit is read.
 */
export function storedRulesReader(files: Pick<FileStore, 'find'>, contentOf: (path: string) => Promise<string | undefined>): RulesFileReader {
  return async (file, maxBytes) => {
    const sha256 = await contentOf(file);
    if (sha256 === undefined) return null;
    const stored = await files.find(sha256);
    if (stored === null) return null;
    if (stored.size === 0) return { bytes: new Uint8Array(0), size: 0 };
    const chunks: Buffer[] = [];
    for await (const chunk of stored.read({ start: 0, end: Math.min(stored.size, maxBytes) - 1 })) chunks.push(chunk as Buffer);
    return { bytes: Buffer.concat(chunks), size: stored.size };
  };
}
