import { cliPaths, ServiceError } from '@svc/protocol';
import { SetRateLimitResponse, type RateLimit } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';
import { formatRateLimit } from '../../../format/rate-limit.js';
import { resolveProject } from '../../../project/project-ref.js';

export interface SetRateLimitFlags {
  workspace?: string;
  project?: string;
}

export async function runSetRateLimit({ args, options, io, out }: CommandContext<SetRateLimitFlags>): Promise<number> {
  const [slug, limitText] = args;
  if (slug === undefined || limitText === undefined) throw new ServiceError('usage', 'give the form\'s slug and a limit: svc forms set-rate-limit <slug> <N/window|default>');
  const rateLimit = await parseLimit(limitText);
  const ref = await resolveProject(io, options);
  const api = await connect(io);
  const result = await api.put(cliPaths.formRateLimit(ref.workspace, ref.project, slug), { rateLimit }, SetRateLimitResponse);
  out.result(result, () => {
    const limit = result.form.rateLimit ? formatRateLimit(result.form.rateLimit) : `the default, ${formatRateLimit(result.defaultRateLimit)}`;
    return `${result.changed ? 'Form' : 'Unchanged: form'} ${result.form.slug} is limited to ${limit} per client IP.`;
  });
  return 0;
}

/** `default` → null; else the syntax of `svc serve --rate-limit` (its own parser). */
async function parseLimit(text: string): Promise<RateLimit | null> {
  if (text.trim().toLowerCase() === 'default') return null;
  const { parsePolicy } = await import('@svc/server');
  try {
    const { max, windowSeconds } = parsePolicy(text);
    return { max, windowSeconds };
  } catch (error) {
    throw new ServiceError('usage', (error as Error).message);
  }
}
