import { cliPaths, maxRotationGraceSeconds, ServiceError } from '@svc/protocol';
import { WebhookWithSecretResponse } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';
import { resolveProject } from '../../../project/project-ref.js';
import { requireArgument } from '../../../require-argument.js';

export interface WebhooksRotateSecretFlags {
  workspace?: string;
  project?: string;
  grace?: string;
}

export async function runWebhooksRotateSecret({ args, options, io, out }: CommandContext<WebhooksRotateSecretFlags>): Promise<number> {
  const id = requireArgument(args[0], 'the webhook\'s id');
  const gracePeriodSeconds = options.grace === undefined ? undefined : await graceSeconds(options.grace);
  const ref = await resolveProject(io, options);
  const api = await connect(io);
  const result = await api.post(cliPaths.rotateWebhookSecret(ref.workspace, ref.project, id), { gracePeriodSeconds }, WebhookWithSecretResponse);
  out.result(result, () => {
    const lines = [`New signing secret for ${result.webhook.id} (shown only this once): ${result.secret}`];
    const until = result.webhook.previousSecretExpiresAt;
    lines.push(until === null ? 'The previous secret no longer signs.' : `The previous secret also signs until ${until}.`);
    return lines.join('\n');
  });
  return 0;
}

/** `24h`, `90m`, `0` → seconds, with the parser of the server's duration flags. */
async function graceSeconds(text: string): Promise<number> {
  const { parseDuration } = await import('@svc/server');
  let seconds: number;
  try {
    seconds = Math.round(parseDuration(text) / 1_000);
  } catch (error) {
    throw new ServiceError('usage', `--grace: ${(error as Error).message}`);
  }
  if (seconds > maxRotationGraceSeconds) throw new ServiceError('usage', '--grace may be at most 7d');
  return seconds;
}
