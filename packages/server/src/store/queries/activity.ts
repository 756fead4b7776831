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

/**
 * The one place that says which deliveries a project's figures count: those of its webhooks
 * (and notification emails), except tests. A test (`svc webhooks test`, **Send test event**)
 * is marked in its event's `test` column (docs/webhooks.md) and is not counted
 * (docs/settings.md).
 */
function countedDeliveries(db: Db, projectId: string) {
  return db
    .selectFrom('deliveries')
    .innerJoin('webhooks', 'webhooks.id', 'deliveries.webhook_id')
    .innerJoin('events', 'events.id', 'deliveries.event_id')
    .where('webhooks.project_id', '=', projectId)
    .where('events.test', '=', 0);
}

/** Deliveries of a project that succeeded, per hour of their success, since `since`. */
export async function deliverySuccessesPerHour(db: Db, projectId: string, since: number): Promise<HourCount[]> {
  const rows = await countedDeliveries(db, projectId)
    .select([hourOf('deliveries.completed_at').as('hour'), (eb) => eb.fn.countAll<number>().as('count')])
    .where('deliveries.status', '=', 'succeeded')
    .where('deliveries.completed_at', '>=', since)
    .groupBy(hourOf('deliveries.completed_at'))
    .execute();
  return rows.map((row) => ({ hour: Number(row.hour), kind: 'succeeded', count: Number(row.count) }));
}

/**
 * Attempts that failed, per hour they were made, since `since`: every failed try counts,
 * those that will be retried too. An attempt failed unless its receiver answered 2xx (an
 * email: the SMTP server took it, which records neither a status nor an error).
 */
export async function failedAttemptsPerHour(db: Db, projectId: string, since: number): Promise<HourCount[]> {
  const rows = await countedDeliveries(db, projectId)
    .innerJoin('delivery_attempts', 'delivery_attempts.delivery_id', 'deliveries.id')
    .select([hourOf('delivery_attempts.started_at').as('hour'), (eb) => eb.fn.countAll<number>().as('count')])
    // A delivery attempted since `since` was updated since then: the cheap filter first.
    .where('deliveries.updated_at', '>=', since)
    .where('delivery_attempts.started_at', '>=', since)
    .where((eb) => eb.or([eb('delivery_attempts.error', 'is not', null), eb('delivery_attempts.status_code', '<', 200), eb('delivery_attempts.status_code', '>', 299)]))
    .groupBy(hourOf('delivery_attempts.started_at'))
    .execute();
  return rows.map((row) => ({ hour: Number(row.hour), kind: 'failed-attempt', count: Number(row.count) }));
}
