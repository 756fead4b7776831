import { deliverySuccessesPerHour, failedAttemptsPerHour, hourMs, submissionsPerHour } from '../store/queries/activity.js';
import type { OperationContext, Principal } from './context.js';
import { projectInScope } from './scope.js';

/** One hour of a project's figures (docs/settings.md); webhook tests are not counted. */
export interface ActivityHour {
  /** Start of the hour (ISO 8601, UTC). */
  readonly start: string;
  readonly submissions: number;
  readonly spam: number;
  /** Deliveries that succeeded in this hour. */
  readonly delivered: number;
  /** Attempts that failed in this hour, those that will be retried included. */
  readonly failedAttempts: number;
}

export type ActivityTotals = Omit<ActivityHour, 'start'>;

/** The last 24 hours of a project, hour by hour, the current hour last (the overview's chart). */
export async function projectActivity(context: OperationContext, principal: Principal, input: { workspace: string; project: string }): Promise<ActivityHour[]> {
  const { db } = context.store;
  const { project } = await projectInScope(db, principal, input.workspace, input.project);
  const currentHour = Math.floor(context.now() / hourMs);
  const firstHour = currentHour - 23;
  const since = firstHour * hourMs;
  const [submissions, successes, failures] = await Promise.all([
    submissionsPerHour(db, project.id, since),
    deliverySuccessesPerHour(db, project.id, since),
    failedAttemptsPerHour(db, project.id, since),
  ]);
  const hours = Array.from({ length: 24 }, (_, index) => ({ start: new Date((firstHour + index) * hourMs).toISOString(), submissions: 0, spam: 0, delivered: 0, failedAttempts: 0 }));
  const add = (rows: typeof submissions, field: (kind: string) => keyof ActivityTotals) => {
    for (const row of rows) {
      const hour = hours[row.hour - firstHour];
      if (hour) hour[field(row.kind)] += row.count;
    }
  };
  add(submissions, (kind) => (kind === 'spam' ? 'spam' : 'submissions'));
  add(successes, () => 'delivered');
  add(failures, () => 'failedAttempts');
  return hours;
}

/** The sums of the hours. */
export function activityTotals(hours: readonly ActivityHour[]): ActivityTotals {
  const totals = { submissions: 0, spam: 0, delivered: 0, failedAttempts: 0 };
  for (const hour of hours) for (const key of Object.keys(totals) as (keyof ActivityTotals)[]) totals[key] += hour[key];
  return totals;
}
