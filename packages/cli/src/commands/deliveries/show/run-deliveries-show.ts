import { cliPaths } from '@svc/protocol';
import { DeliveryResponse } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';
import { resolveProject } from '../../../project/project-ref.js';
import { requireArgument } from '../../../require-argument.js';

export interface DeliveriesShowFlags {
  workspace?: string;
  project?: string;
}

export async function runDeliveriesShow({ args, options, io, out }: CommandContext<DeliveriesShowFlags>): Promise<number> {
  const id = requireArgument(args[0], 'the delivery\'s id');
  const ref = await resolveProject(io, options);
  const api = await connect(io);
  const result = await api.get(cliPaths.delivery(ref.workspace, ref.project, id), DeliveryResponse);
  out.result(result, () => {
    const { delivery } = result;
    const next = delivery.nextAttemptAt === null ? '' : `, next attempt at ${delivery.nextAttemptAt}`;
    const header = `${delivery.id}: ${delivery.eventType} (${delivery.eventId}) to ${delivery.webhookId}: ${delivery.status}${next}`;
    if (result.attempts.length === 0) return `${header}\nNo attempt yet.`;
    return `${header}\n\n${out.table(result.attempts, [
      { header: 'ATTEMPT', value: (attempt) => String(attempt.attempt) },
      { header: 'STARTED', value: (attempt) => attempt.startedAt },
      { header: 'TOOK', value: (attempt) => `${attempt.durationMs} ms` },
      { header: 'ANSWER', value: (attempt) => (attempt.statusCode === null ? (attempt.error ?? '') : `HTTP ${attempt.statusCode}`) },
      { header: 'BODY', value: (attempt) => (attempt.responseBody ?? '').replace(/\s+/g, ' ').slice(0, 60) },
    ])}`;
  });
  return 0;
}
