import type { Db } from '../store.js';

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
  if (hostnames.length === 0) return [];
  const rows = await db
    .selectFrom('domains')
    .select('hostname')
    .where('hostname', 'in', hostnames)
    .where('project_id', '!=', projectId)
    .orderBy('hostname')
    .execute();
  return rows.map((row) => row.hostname);
}

/** Replaces every hostname of the project with `entries`. */
export async function replaceProjectDomains(db: Db, projectId: string, entries: readonly DomainEntry[], now = Date.now()): Promise<void> {
  await db.deleteFrom('domains').where('project_id', '=', projectId).execute();
  if (entries.length === 0) return;
  await db
    .insertInto('domains')
    .values(entries.map((entry) => ({ ...entry, project_id: projectId, created_at: now })))
    .execute();
}
