import { cliPaths, deliveryListPageSize, ServiceError } from '@svc/protocol';
import { ListDeliveriesResponse, type DeliveryInfo, type DeliveryStatus } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';
import { resolveProject } from '../../../project/project-ref.js';

export interface DeliveriesListFlags {
  workspace?: string;
  project?: string;
  webhook?: string;
  status?: DeliveryStatus;
  limit?: string;
  cursor?: string;
}

export async function runDeliveriesList({ options, io, out }: CommandContext<DeliveriesListFlags>): Promise<number> {
  const limit = options.limit === undefined ? undefined : parseLimit(options.limit);
  const ref = await resolveProject(io, options);
  const api = await connect(io);
  const page = await api.get(cliPaths.deliveries(ref.workspace, ref.project), ListDeliveriesResponse, {
    webhook: options.webhook,
    status: options.status,
    limit,
    cursor: options.cursor,
  });
  out.result(page, () =>
    page.deliveries.length === 0
      ? 'No deliveries.'
      : out.table(page.deliveries, [
          { header: 'ID', value: (delivery) => delivery.id },
          { header: 'WEBHOOK', value: (delivery) => delivery.webhookId },
          { header: 'EVENT', value: (delivery) => delivery.eventType },
          { header: 'STATUS', value: (delivery) => delivery.status },
          { header: 'ATTEMPTS', value: (delivery) => String(delivery.attemptCount) },
          { header: 'LAST ANSWER', value: lastAnswer },
          { header: 'CREATED', value: (delivery) => delivery.createdAt },
        ]),
  );
  if (!out.json && page.nextCursor !== null) out.note(`More: svc deliveries list --cursor ${page.nextCursor} (with the same filters)`);
  return 0;
}

export function lastAnswer(delivery: DeliveryInfo): string {
  if (delivery.lastStatusCode !== null) return `HTTP ${delivery.lastStatusCode}`;
  return delivery.lastError ?? '';
}

function parseLimit(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < 1 || value > deliveryListPageSize.max) {
    throw new ServiceError('usage', `--limit must be a whole number from 1 to ${deliveryListPageSize.max}`);
  }
  return value;
}
