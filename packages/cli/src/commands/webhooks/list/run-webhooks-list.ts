import { cliPaths } from '@svc/protocol';
import { ListWebhooksResponse } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';
import { resolveProject } from '../../../project/project-ref.js';

export interface WebhooksListFlags {
  workspace?: string;
  project?: string;
}

export async function runWebhooksList({ options, io, out }: CommandContext<WebhooksListFlags>): Promise<number> {
  const ref = await resolveProject(io, options);
  const api = await connect(io);
  const result = await api.get(cliPaths.webhooks(ref.workspace, ref.project), ListWebhooksResponse);
  out.result(result, () =>
    result.webhooks.length === 0
      ? `${ref.workspace}/${ref.project} has no webhooks: add one with \`svc webhooks add --url URL --events form.*\`.`
      : out.table(result.webhooks, [
          { header: 'ID', value: (webhook) => webhook.id },
          { header: 'URL', value: (webhook) => webhook.url },
          { header: 'EVENTS', value: (webhook) => webhook.events.join(',') },
          { header: 'STATUS', value: (webhook) => (webhook.enabled ? 'enabled' : `disabled (${webhook.disabledReason ?? 'by hand'})`) },
          { header: 'DESCRIPTION', value: (webhook) => webhook.description ?? '' },
        ]),
  );
  return 0;
}
