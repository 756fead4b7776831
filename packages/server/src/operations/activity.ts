import { deliveryOutcomesPerHour, hourMs, submissionsPerHour } from '../store/queries/activity.js';
import type { OperationContext, Principal } from './context.js';
import { projectInScope } from './scope.js';

export interface ActivityHour {
  /** Start of the hour (ISO 8601, UTC). */
  readonly start: string;
  readonly submissions: number;
  readonly spam: number;
  readonly delivered: number;
  readonly failed: number;
}

/** The last 24 hours of a project, hour by hour, the current hour last (the overview's chart). */
export async function projectActivity(context: OperationContext, principal: Principal, input: { workspace: string; project: string }): Promise<ActivityHour[]> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const currentHour = Math.floor(context.now() / hourMs);
  const firstHour = currentHour - 23;
  const since = firstHour * hourMs;
  const [submissions, deliveries] = await Promise.all([
    submissionsPerHour(context.store.db, project.id, since),
    deliveryOutcomesPerHour(context.store.db, project.id, since),
  ]);
  const hours = Array.from({ length: 24 }, (_, index) => ({ start: new Date((firstHour + index) * hourMs).toISOString(), submissions: 0, spam: 0, delivered: 0, failed: 0 }));
  for (const row of submissions) {
    const hour = hours[row.hour - firstHour];
    if (!hour) continue;
    if (row.kind === 'spam') hour.spam += row.count;
    else hour.submissions += row.count;
  }
  for (const row of deliveries) {
    const hour = hours[row.hour - firstHour];
    if (!hour) continue;
    if (row.kind === 'succeeded') hour.delivered += row.count;
    else if (row.kind === 'failed') hour.failed += row.count;
  }
  return hours;
}
