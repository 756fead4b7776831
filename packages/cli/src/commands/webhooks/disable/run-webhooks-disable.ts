import { cliPaths } from '@svc/protocol';
import { WebhookResponse } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';
import { resolveProject } from '../../../project/project-ref.js';
import { requireArgument } from '../../../require-argument.js';
import { describeWebhook } from '../webhook-line.js';

export interface WebhooksDisableFlags {
  workspace?: string;
  project?: string;
  reason?: string;
}

export async function runWebhooksDisable({ args, options, io, out }: CommandContext<WebhooksDisableFlags>): Promise<number> {
  const id = requireArgument(args[0], 'the webhook\'s id');
  const ref = await resolveProject(io, options);
  const api = await connect(io);
  const result = await api.post(cliPaths.disableWebhook(ref.workspace, ref.project, id), options.reason === undefined ? {} : { reason: options.reason }, WebhookResponse);
  out.result(result, () => `Disabled webhook ${describeWebhook(result.webhook)}.`);
  return 0;
}
