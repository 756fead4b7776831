import { sql } from 'kysely';
import type { Db } from '../store.js';

export const hourMs = 3_600_000;

export interface HourCount {
  /** Hours since the epoch (`floor(ms / 3600000)`). */
  readonly hour: number;
  readonly kind: string;
  readonly count: number;
}

// Integer division of integer milliseconds is the same on SQLite and PostgreSQL (BIGINT).
const hourOf = (column: string) => sql<number>`${sql.ref(column)} / ${sql.lit(hourMs)}`;

/** Submissions of a project per hour and state since `since`. */
export async function submissionsPerHour(db: Db, projectId: string, since: number): Promise<HourCount[]> {
  const rows = await db
    .selectFrom('submissions')
    .innerJoin('forms', 'forms.id', 'submissions.form_id')
    .select([hourOf('submissions.created_at').as('hour'), 'submissions.state as kind', (eb) => eb.fn.countAll<number>().as('count')])
    .where('forms.project_id', '=', projectId)
    .where('submissions.created_at', '>=', since)
    .groupBy([hourOf('submissions.created_at'), 'submissions.state'])
    .execute();
  return rows.map((row) => ({ hour: Number(row.hour), kind: row.kind, count: Number(row.count) }));
}

/** Deliveries of a project's webhooks that finished (succeeded or failed) per hour since `since`. */
export async function deliveryOutcomesPerHour(db: Db, projectId: string, since: number): Promise<HourCount[]> {
  const rows = await db
    .selectFrom('deliveries')
    .innerJoin('webhooks', 'webhooks.id', 'deliveries.webhook_id')
    .select([hourOf('deliveries.completed_at').as('hour'), 'deliveries.status as kind', (eb) => eb.fn.countAll<number>().as('count')])
    .where('webhooks.project_id', '=', projectId)
    .where('deliveries.completed_at', '>=', since)
    .groupBy([hourOf('deliveries.completed_at'), 'deliveries.status'])
    .execute();
  return rows.map((row) => ({ hour: Number(row.hour), kind: row.kind, count: Number(row.count) }));
}
