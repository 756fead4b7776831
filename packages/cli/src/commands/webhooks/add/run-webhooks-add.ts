import { cliPaths, ServiceError } from '@svc/protocol';
import { WebhookWithSecretResponse } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';
import { resolveProject } from '../../../project/project-ref.js';
import { describeWebhook } from '../webhook-line.js';

export interface WebhooksAddFlags {
  workspace?: string;
  project?: string;
  url?: string;
  events?: string[];
  description?: string;
}

export async function runWebhooksAdd({ options, io, out }: CommandContext<WebhooksAddFlags>): Promise<number> {
  if (options.url === undefined || options.url === '') throw new ServiceError('usage', 'pass the receiver\'s address with --url');
  const events = (options.events ?? []).flatMap((value) => value.split(',')).map((pattern) => pattern.trim()).filter((pattern) => pattern !== '');
  if (events.length === 0) throw new ServiceError('usage', 'pass the events to send with --events, e.g. --events form.*');
  const ref = await resolveProject(io, options);
  const api = await connect(io);
  const created = await api.post(
    cliPaths.webhooks(ref.workspace, ref.project),
    { url: options.url, events, ...(options.description === undefined ? {} : { description: options.description }) },
    WebhookWithSecretResponse,
  );
  out.result(created, () => [`Added webhook ${describeWebhook(created.webhook)}.`, `Signing secret (shown only this once): ${created.secret}`].join('\n'));
  return 0;
}
