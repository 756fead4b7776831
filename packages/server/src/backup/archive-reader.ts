import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '@svc/protocol';
import tar from 'tar-stream';
import { ledger } from './table-policy.js';
import { invalidArchive, maxManifestBytes, memberOf, parseManifest, type Manifest, type Member } from './archive-format.js';

/** An archive whose every member was read and matched its manifest. */
export interface VerifiedArchive {
  readonly path: string;
  readonly manifest: Manifest;
  /** The SHA-256 of the manifest's bytes: the second read must find the same. */
  readonly manifestSha256: string;
  /** Members in archive order (the manifest last). */
  readonly members: readonly string[];
  /** The rows of the migrations ledger the archive holds: which migrations its store had. */
  readonly ledger: readonly { readonly version: number; readonly name: string }[];
}

/**
 * Reads a member's bytes as they stream by: `visit` gets each member in order; a member
 * must be drained (or fully read) before the next comes.
 */
async function readMembers(path: string, visit: (name: string, type: string, content: AsyncIterable<Uint8Array>) => Promise<void>): Promise<void> {
  const extract = tar.extract();
  const reading = pipeline(createReadStream(path), extract).catch((error: unknown) => {
    throw invalidArchive(`it is truncated or not a tar file (${(error as Error).message})`, error);
  });
  reading.catch(() => undefined);
  try {
    for await (const entry of extract) await visit(entry.header.name, entry.header.type, entry as AsyncIterable<Uint8Array>);
  } catch (error) {
    extract.destroy();
    await reading.catch(() => undefined);
    if (error instanceof ServiceError) throw error;
    throw invalidArchive(`it is truncated or not a tar file (${(error as Error).message})`, error);
  }
  await reading;
}

/**
 * The first read of a restore: every member hashed and counted, then held against the
 * manifest. Refused (archive_invalid) when a member is missing, extra, altered or cut short,
 * when the manifest is missing or malformed, or when a table's line count differs.
 */
export async function verifyArchive(path: string): Promise<VerifiedArchive> {
  const found = new Map<string, { sha256: string; lines: number }>();
  const members: string[] = [];
  let manifestText: string | null = null;
  let manifestSha256 = '';
  let ledgerText: string | null = null;
  await readMembers(path, async (name, type, content) => {
    const member = memberOf(name);
    if (type !== 'file' || member === null) throw invalidArchive(`it holds ${JSON.stringify(name)}, which no svc backup has`);
    if (found.has(name) || (member.kind === 'manifest' && manifestText !== null)) throw invalidArchive(`it holds ${name} twice`);
    if (manifestText !== null) throw invalidArchive(`${name} comes after manifest.json`);
    const hash = createHash('sha256');
    let lines = 0;
    const kept: Buffer[] = [];
    let size = 0;
    for await (const chunk of content) {
      hash.update(chunk);
      size += chunk.byteLength;
      if (member.kind === 'table') for (const byte of chunk) if (byte === 10) lines += 1;
      if (member.kind === 'manifest' || (member.kind === 'table' && member.table === ledger)) {
        if (size > maxManifestBytes) throw invalidArchive(`${name} is too large`);
        kept.push(Buffer.from(chunk));
      }
    }
    const sha256 = hash.digest('hex');
    members.push(name);
    if (member.kind === 'manifest') {
      manifestText = Buffer.concat(kept).toString('utf8');
      manifestSha256 = sha256;
    } else {
      if (member.kind === 'table' && member.table === ledger) ledgerText = Buffer.concat(kept).toString('utf8');
      found.set(name, { sha256, lines });
    }
  });
  if (manifestText === null) throw invalidArchive('it has no manifest.json (an archive cut short, or not an svc backup)');
  const manifest = parseManifest(manifestText);
  checkAgainstManifest(manifest, found);
  return { path, manifest, manifestSha256, members, ledger: parseLedger(ledgerText) };
}

function parseLedger(text: string | null): VerifiedArchive['ledger'] {
  if (text === null) throw invalidArchive(`it has no tables/${ledger}.ndjson (which migrations its store had)`);
  try {
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const row = JSON.parse(line) as { version?: unknown; name?: unknown };
        if (!Number.isSafeInteger(row.version) || typeof row.name !== 'string') throw new Error('a row without version and name');
        return { version: row.version as number, name: row.name };
      });
  } catch (error) {
    throw invalidArchive(`tables/${ledger}.ndjson is not a migrations ledger (${(error as Error).message})`, error);
  }
}

function checkAgainstManifest(manifest: Manifest, found: ReadonlyMap<string, { sha256: string; lines: number }>): void {
  for (const [name, sha256] of Object.entries(manifest.checksums)) {
    const member = found.get(name);
    if (!member) throw invalidArchive(`${name} is missing`);
    if (member.sha256 !== sha256) throw invalidArchive(`${name} does not match its checksum (altered or damaged)`);
  }
  for (const [name, member] of found) {
    if (!Object.hasOwn(manifest.checksums, name)) throw invalidArchive(`${name} is not in the manifest`);
    const kind = memberOf(name) as Exclude<Member, { kind: 'manifest' }>;
    if (kind.kind === 'file' && kind.sha256 !== member.sha256) throw invalidArchive(`${name} is not the content its name says`);
    if (kind.kind === 'table' && manifest.tables[kind.table] !== member.lines) {
      throw invalidArchive(`${name} has ${member.lines} rows where the manifest says ${manifest.tables[kind.table] ?? 'none'}`);
    }
  }
  for (const table of Object.keys(manifest.tables)) {
    if (!found.has(`tables/${table}.ndjson`)) throw invalidArchive(`the table ${table} is missing`);
  }
}

/**
 * The second read of a restore: each member again, in order, its bytes checked against the
 * verified manifest as they go by, so an archive changed between the two reads is refused
 * too (its content throws once read to its end). `visit` must read each content to its end.
 */
export async function readVerifiedArchive(
  archive: VerifiedArchive,
  visit: (member: Member, content: AsyncIterable<Uint8Array>) => Promise<void>,
): Promise<void> {
  await readMembers(archive.path, async (name, _type, content) => {
    const member = memberOf(name);
    const expected = member?.kind === 'manifest' ? archive.manifestSha256 : archive.manifest.checksums[name];
    if (member === null || expected === undefined) throw invalidArchive(`${name} appeared in the archive since it was checked`);
    const hash = createHash('sha256');
    let ended = false;
    const checked = async function* (): AsyncGenerator<Uint8Array> {
      for await (const chunk of content) {
        hash.update(chunk);
        yield chunk;
      }
      ended = true;
      if (hash.digest('hex') !== expected) throw invalidArchive(`${name} changed since it was checked`);
    };
    await visit(member, checked());
    if (!ended) throw new Error(`${name} was not read to its end`);
  });
}
