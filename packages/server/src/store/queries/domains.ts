import type { Db } from '../store.js';

/**
 * Rows or values per statement: a push may carry tens of thousands of hostnames, more
 * than one statement may bind (SQLite allows 32,766 parameters, PostgreSQL 65,535).
 */
const perStatement = 1_000;

function* slices<T>(items: readonly T[]): Generator<readonly T[]> {
  for (let start = 0; start < items.length; start += perStatement) yield items.slice(start, start + perStatement);
}

export interface DomainEntry {
  hostname: string;
  environment: string;
  position: number;
}

/** A project's hostnames, per environment in service.json order. */
export async function listProjectDomains(db: Db, projectId: string): Promise<DomainEntry[]> {
  return db
    .selectFrom('domains')
    .select(['hostname', 'environment', 'position'])
    .where('project_id', '=', projectId)
    .orderBy('environment')
    .orderBy('position')
    .execute();
}

/** Which of `hostnames` belong to a project other than `projectId`. */
export async function hostnamesOwnedElsewhere(db: Db, projectId: string, hostnames: readonly string[]): Promise<string[]> {
  const owned: string[] = [];
  for (const slice of slices(hostnames)) {
    const rows = await db.selectFrom('domains').select('hostname').where('hostname', 'in', slice).where('project_id', '!=', projectId).execute();
    owned.push(...rows.map((row) => row.hostname));
  }
  return owned.sort();
}

/** Replaces every hostname of the project with `entries`. */
export async function replaceProjectDomains(db: Db, projectId: string, entries: readonly DomainEntry[], now = Date.now()): Promise<void> {
  await db.deleteFrom('domains').where('project_id', '=', projectId).execute();
  for (const slice of slices(entries)) {
    await db
      .insertInto('domains')
      .values(slice.map((entry) => ({ ...entry, project_id: projectId, created_at: now })))
      .execute();
  }
}
