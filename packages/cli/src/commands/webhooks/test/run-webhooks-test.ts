import { cliPaths, ServiceError } from '@svc/protocol';
import { TestWebhookResponse } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';
import { resolveProject } from '../../../project/project-ref.js';
import { requireArgument } from '../../../require-argument.js';

export interface WebhooksTestFlags {
  workspace?: string;
  project?: string;
  event?: string;
}

/** Exit 0 when the receiver took the sample; `delivery_failed` (exit 1) when it did not. */
export async function runWebhooksTest({ args, options, io, out }: CommandContext<WebhooksTestFlags>): Promise<number> {
  const id = requireArgument(args[0], 'the webhook\'s id');
  const ref = await resolveProject(io, options);
  const api = await connect(io);
  const result = await api.post(cliPaths.testWebhook(ref.workspace, ref.project, id), options.event === undefined ? {} : { event: options.event }, TestWebhookResponse);
  const { attempt } = result;
  const answer = attempt.statusCode === null ? `no answer (${attempt.error ?? 'unknown error'})` : `HTTP ${attempt.statusCode}`;
  if (!result.succeeded) {
    const retry = result.delivery.nextAttemptAt === null ? '' : `; it is retried at ${result.delivery.nextAttemptAt}`;
    throw new ServiceError('delivery_failed', `the receiver did not accept ${result.event.type} (${result.event.id}): ${answer} after ${attempt.durationMs} ms${retry}`, {
      event: result.event,
      delivery: result.delivery,
      attempt,
    });
  }
  out.result(result, () => `Delivered ${result.event.type} (${result.event.id}): ${answer} in ${attempt.durationMs} ms (delivery ${result.delivery.id}).`);
  return 0;
}
