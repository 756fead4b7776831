import { cliPaths } from '@svc/protocol';
import { WebhookResponse } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';
import { resolveProject } from '../../../project/project-ref.js';
import { requireArgument } from '../../../require-argument.js';
import { describeWebhook } from '../webhook-line.js';

export interface WebhooksRemoveFlags {
  workspace?: string;
  project?: string;
}

export async function runWebhooksRemove({ args, options, io, out }: CommandContext<WebhooksRemoveFlags>): Promise<number> {
  const id = requireArgument(args[0], 'the webhook\'s id');
  const ref = await resolveProject(io, options);
  const api = await connect(io);
  const result = await api.delete(cliPaths.webhook(ref.workspace, ref.project, id), WebhookResponse);
  out.result(result, () => `Removed webhook ${describeWebhook(result.webhook)}.`);
  return 0;
}
