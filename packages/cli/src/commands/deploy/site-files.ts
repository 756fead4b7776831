import { resolve } from 'node:path';
import { hashFile, type SiteEntry } from '@svc/protocol/site-files';
import type { Io } from '../../io.js';
import { configDir } from '../../credentials/config-dir.js';

/** One file of the site as it will be deployed. */
export interface SiteFile extends SiteEntry {
  readonly sha256: string;
}

/**
 * Folders of svc's own state that may lie inside the site's folder: the CLI's configuration
 * (`svc login`'s credentials) and `svc serve`'s data folder when set to somewhere there. A
 * deploy never uploads them (docs/hosting.md#what-is-never-uploaded).
 */
export function stateFolders(io: Io): string[] {
  const dataDir = io.env['SVC_DATA_DIR'];
  return [resolve(io.cwd, configDir(io.env)), ...(dataDir === undefined || dataDir === '' ? [] : [resolve(io.cwd, dataDir)])];
}

/** Hashes the files a deploy takes, one after another. */
export async function hashSiteFiles(entries: readonly SiteEntry[]): Promise<SiteFile[]> {
  const files: SiteFile[] = [];
  for (const entry of entries) files.push({ ...entry, ...(await hashFile(entry.absolute)) });
  return files;
}

/** The build output directory of a framework (the specification's `framework`), when it has one. */
export function outputDirectory(framework: string): string | null {
  switch (framework) {
    case 'static':
      return '.';
    case 'astro':
      return 'dist';
    case 'next':
      return 'out';
    default:
      return null;
  }
}
