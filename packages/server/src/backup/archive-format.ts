import { ServiceError } from '@svc/protocol';

/**
 * The backup archive (docs/server.md, "Backups and moving"): one tar file of
 *
 * - `tables/{table}.ndjson`: every row of a table, one JSON object a line, parents before
 *   the tables that reference them;
 * - `files/{sha256}`: every stored content, named by its SHA-256;
 * - `manifest.json`, last: what the archive holds and the SHA-256 of every other member.
 *
 * The manifest comes last because its checksums are known only once everything else is
 * written; a restore reads the whole archive, checking every member, before it writes
 * anything.
 */
export const archiveFormat = 1;
export const manifestMember = 'manifest.json';
/** The largest manifest a restore reads (one checksum per stored content). */
export const maxManifestBytes = 256 * 1024 * 1024;

export interface Manifest {
  /** The archive's layout; a restore refuses a newer one. */
  readonly format: number;
  /** The highest migration applied to the store the archive was made of. */
  readonly migration: number;
  /** When the snapshot was taken (ISO 8601). */
  readonly createdAt: string;
  /** Rows of each table in the archive. */
  readonly tables: Readonly<Record<string, number>>;
  /** The SHA-256 (hex) of every member but the manifest, by member path. */
  readonly checksums: Readonly<Record<string, string>>;
  /** The key id of the encryption key the store's secrets are sealed with; null when it has none. */
  readonly keyFingerprint: string | null;
}

export type Member = { readonly kind: 'manifest' } | { readonly kind: 'table'; readonly table: string } | { readonly kind: 'file'; readonly sha256: string };

export const tableMember = (table: string): string => `tables/${table}.ndjson`;
export const fileMember = (sha256: string): string => `files/${sha256}`;

/** What a member path names, or null for a path no svc archive has. */
export function memberOf(path: string): Member | null {
  if (path === manifestMember) return { kind: 'manifest' };
  const table = /^tables\/([a-z_][a-z0-9_]{0,62})\.ndjson$/.exec(path);
  if (table) return { kind: 'table', table: table[1]! };
  const file = /^files\/([0-9a-f]{64})$/.exec(path);
  if (file) return { kind: 'file', sha256: file[1]! };
  return null;
}

export function invalidArchive(problem: string, cause?: unknown): ServiceError {
  return new ServiceError('archive_invalid', `the archive cannot be restored: ${problem}; nothing was written`, undefined, cause === undefined ? undefined : { cause });
}

/** The manifest's text as a Manifest, or archive_invalid saying what is wrong with it. */
export function parseManifest(text: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidArchive('manifest.json is not JSON', error);
  }
  const manifest = value as Partial<Manifest> | null;
  const counts = (record: unknown, check: (entry: unknown) => boolean): boolean =>
    typeof record === 'object' && record !== null && !Array.isArray(record) && Object.values(record).every(check);
  if (
    typeof manifest !== 'object' ||
    manifest === null ||
    !Number.isSafeInteger(manifest.format) ||
    !Number.isSafeInteger(manifest.migration) ||
    typeof manifest.createdAt !== 'string' ||
    Number.isNaN(Date.parse(manifest.createdAt)) ||
    !counts(manifest.tables, (rows) => Number.isSafeInteger(rows) && (rows as number) >= 0) ||
    !counts(manifest.checksums, (sum) => typeof sum === 'string' && /^[0-9a-f]{64}$/.test(sum)) ||
    !(manifest.keyFingerprint === null || typeof manifest.keyFingerprint === 'string')
  ) {
    throw invalidArchive('manifest.json does not describe an svc backup');
  }
  return manifest as Manifest;
}
