import { cliPaths } from '@svc/protocol';
import { ResendDeliveryResponse } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';
import { resolveProject } from '../../../project/project-ref.js';
import { requireArgument } from '../../../require-argument.js';

export interface DeliveriesResendFlags {
  workspace?: string;
  project?: string;
}

export async function runDeliveriesResend({ args, options, io, out }: CommandContext<DeliveriesResendFlags>): Promise<number> {
  const id = requireArgument(args[0], 'the delivery\'s id');
  const ref = await resolveProject(io, options);
  const api = await connect(io);
  const result = await api.post(cliPaths.resendDelivery(ref.workspace, ref.project, id), {}, ResendDeliveryResponse);
  out.result(result, () => `Queued delivery ${result.delivery.id} (${result.delivery.eventType}) again: it is sent now.`);
  return 0;
}
