import { cliPaths } from '@svc/protocol';
import { WebhookResponse } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';
import { resolveProject } from '../../../project/project-ref.js';
import { requireArgument } from '../../../require-argument.js';
import { describeWebhook } from '../webhook-line.js';

export interface WebhooksEnableFlags {
  workspace?: string;
  project?: string;
}

export async function runWebhooksEnable({ args, options, io, out }: CommandContext<WebhooksEnableFlags>): Promise<number> {
  const id = requireArgument(args[0], 'the webhook\'s id');
  const ref = await resolveProject(io, options);
  const api = await connect(io);
  const result = await api.post(cliPaths.enableWebhook(ref.workspace, ref.project, id), {}, WebhookResponse);
  out.result(result, () => `Enabled webhook ${describeWebhook(result.webhook)}.`);
  return 0;
}
