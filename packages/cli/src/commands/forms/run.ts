import { cliPaths, formatRateLimit, maxLinksLimit, parseRateLimit, ServiceError } from '@svc/protocol';
import { FormSettingsResponse, ListFormsResponse, SetRateLimitResponse, type FormSettingsRequest, type RateLimit } from '@svc/protocol/api';
import type { ContextOf } from '../../command.js';
import { formSettingsLines, formsTable } from '../../format/forms-table.js';
import { callProject } from '../../server-call.js';
import type { formsList, formsSet, formsSetRateLimit } from './commands.js';
import { parseRetention } from '../../retention-flag.js';

export async function list(context: ContextOf<typeof formsList>): Promise<number> {
  return callProject(
    context,
    ({ api, ref }) => api.get(cliPaths.forms(ref.workspace, ref.project), ListFormsResponse),
    (result, { ref }) =>
      result.forms.length === 0
        ? `${ref.workspace}/${ref.project} has no forms yet: add one to service.json and run \`svc push\`.`
        : formsTable(context.out, result.forms, result.defaultRateLimit),
  );
}

export async function setRateLimit(context: ContextOf<typeof formsSetRateLimit>): Promise<number> {
  const { slug, limit } = context.args;
  const rateLimit = parseLimit(limit);
  return callProject(
    context,
    ({ api, ref }) => api.put(cliPaths.formRateLimit(ref.workspace, ref.project, slug), { rateLimit }, SetRateLimitResponse),
    (result) => {
      const current = result.form.rateLimit ? formatRateLimit(result.form.rateLimit) : `the default, ${formatRateLimit(result.defaultRateLimit)}`;
      return `${result.changed ? 'Form' : 'Unchanged: form'} ${result.form.slug} is limited to ${current} per client IP.`;
    },
  );
}

export async function set(context: ContextOf<typeof formsSet>): Promise<number> {
  const { options } = context;
  const body: FormSettingsRequest = {
    ...(options.successUrl === undefined ? {} : { successUrl: orNull(options.successUrl) }),
    ...(options.errorUrl === undefined ? {} : { errorUrl: orNull(options.errorUrl) }),
    ...(options.notify === undefined ? {} : { notify: addresses(options.notify) }),
    ...(options.rateLimit === undefined ? {} : { rateLimit: parseLimit(options.rateLimit) }),
    ...(options.retention === undefined ? {} : { retentionSeconds: parseRetention(options.retention) }),
    ...(options.captcha === undefined ? {} : { captcha: options.captcha }),
    ...(options.captchaSecretEnv === undefined ? {} : { captchaSecret: secretFromEnvironment(options.captchaSecretEnv, context.io.env) }),
    ...(options.maxLinks === undefined ? {} : { maxLinks: parseMaxLinks(options.maxLinks) }),
    ...(options.origins === undefined ? {} : { origins: options.origins }),
  };
  if (Object.keys(body).length === 0) {
    throw new ServiceError('usage', 'give at least one of --success-url, --error-url, --notify, --rate-limit, --retention, --captcha, --captcha-secret-env, --max-links and --origins');
  }
  return callProject(
    context,
    ({ api, ref }) => api.patch(cliPaths.form(ref.workspace, ref.project, context.args.slug), body, FormSettingsResponse),
    (result) => `${result.changed ? 'Updated' : 'Unchanged:'} form ${result.form.slug}.\n${formSettingsLines(result.form, result.defaultRateLimit).join('\n')}`,
  );
}

/** The secret is read from the environment, never from the command line (where `ps` and shell history would keep it). */
function secretFromEnvironment(name: string, env: Readonly<Record<string, string | undefined>>): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new ServiceError('usage', `--captcha-secret-env takes the name of an environment variable, not "${name.slice(0, 40)}"`);
  const value = env[name]?.trim();
  if (value === undefined || value === '') throw new ServiceError('usage', `--captcha-secret-env: the environment variable ${name} is not set`);
  return value;
}

/** `none` → no limit; else a count from 0. */
function parseMaxLinks(text: string): number | null {
  if (text.trim().toLowerCase() === 'none') return null;
  const count = /^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!(count <= maxLinksLimit)) throw new ServiceError('usage', `--max-links takes a number from 0 to ${maxLinksLimit}, or none`);
  return count;
}

/** `none` (or nothing) removes a URL. */
function orNull(text: string): string | null {
  return text.trim() === '' || text.trim().toLowerCase() === 'none' ? null : text.trim();
}

function addresses(values: readonly string[]): string[] {
  const list = values.flatMap((value) => value.split(',')).map((value) => value.trim()).filter((value) => value !== '');
  return list.length === 1 && list[0]!.toLowerCase() === 'none' ? [] : list;
}

/** `default` → null; else the syntax of `svc serve --rate-limit` (its own parser). */
function parseLimit(text: string): RateLimit | null {
  if (text.trim().toLowerCase() === 'default') return null;
  try {
    const { max, windowSeconds } = parseRateLimit(text);
    return { max, windowSeconds };
  } catch (error) {
    throw new ServiceError('usage', (error as Error).message);
  }
}
