import { captchaKinds, checkRateLimit, isCaptchaKind, maxLinksLimit, maxNotifyAddresses, ServiceError } from '@svc/protocol';
import type { FormInfo, RateLimit } from '@svc/protocol/api';
import { captchaSecretContext } from '../forms/spam/captcha-secret.js';
import { normalizeOrigins } from '../forms/spam/origins.js';
import { isValidEmail } from '../lib/email-address.js';
import { httpUrl } from '../forms/person-answers.js';
import { findProjectForm, listProjectForms, parseNotifyEmails, updateForm } from '../store/queries/forms.js';
import type { FormRow } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { recordAudit } from './audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { toFormInfo } from './form-info.js';
import { syncNotificationTargets } from './notification-target.js';
import type { ProjectInput } from './project-config.js';
import { projectInScope, type ProjectInScope } from './scope.js';

export interface FormInput extends ProjectInput {
  readonly slug: string;
}

/** The form, if its project is in scope and it exists; else `not_found`. */
export async function formInScope(db: Db, principal: Principal, input: FormInput): Promise<ProjectInScope & { form: FormRow }> {
  const scope = await projectInScope(db, principal, input.workspace, input.project);
  const form = await findProjectForm(db, scope.project.id, input.slug);
  if (!form) throw new ServiceError('not_found', `no form "${input.slug}" in project "${input.project}"`);
  return { ...scope, form };
}

/** `svc forms list`: slug, name, endpoint id, URL and rate limit of every form, in service.json order. */
export async function listForms(context: OperationContext, principal: Principal, input: ProjectInput): Promise<{ forms: FormInfo[]; defaultRateLimit: RateLimit }> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const forms = await listProjectForms(context.store.db, project.id);
  return { forms: forms.map((form) => toFormInfo(context, form)), defaultRateLimit: defaultRateLimit(context) };
}

export function defaultRateLimit(context: OperationContext): RateLimit {
  return { max: context.options.rateLimit.max, windowSeconds: context.options.rateLimit.windowSeconds };
}

/** A form's own retention: from a minute to ten years (docs/privacy.md). */
export const formRetentionSeconds = { min: 60, max: 315_360_000 } as const;

export interface FormSettingsChange {
  /** null clears; undefined keeps. */
  readonly successUrl?: string | null;
  readonly errorUrl?: string | null;
  readonly notify?: readonly string[];
  readonly rateLimit?: RateLimit | null;
  /** Seconds; null keeps submissions until deleted. */
  readonly retentionSeconds?: number | null;
  /** Spam protection (docs/form-endpoint.md, "Spam protection"): one of `captchaKinds`, checked here. */
  readonly captcha?: string;
  /** The provider's secret key, in clear: sealed before it is stored; null removes it. */
  readonly captchaSecret?: string | null;
  readonly maxLinks?: number | null;
  /** `any`, `project`, or origins joined by commas. */
  readonly origins?: string;
}

/**
 * `svc forms set` (docs/form-endpoint.md): a form's success and error URLs, notification
 * addresses and rate limit; what is not given keeps its value. Every value is checked
 * before anything is written; the form endpoint applies the change at once in this
 * process, within seconds elsewhere.
 */
export async function updateFormSettings(
  context: OperationContext,
  principal: Principal,
  input: FormInput & FormSettingsChange,
): Promise<{ form: FormInfo; defaultRateLimit: RateLimit; changed: boolean }> {
  const checked = checkedSettings(context, input);
  const result = await context.store.transaction(async (trx) => {
    const { workspace, project, form } = await formInScope(trx, principal, input);
    const changes = withCaptchaSecret(context, form, checked, input.captchaSecret);
    const changed = (Object.keys(changes) as (keyof typeof changes)[]).some((column) => form[column] !== changes[column]);
    if (changed) await updateForm(trx, form.id, changes, context.now());
    if (changed) await recordAudit(trx, context, principal, { action: 'form.settings_changed', workspaceId: workspace.id, projectId: project.id, object: { type: 'form', id: form.slug } });
    if (changes.notify_emails !== undefined && changes.notify_emails !== form.notify_emails) {
      await syncNotificationTargets(trx, form, parseNotifyEmails(changes.notify_emails), context.secrets, context.now());
    }
    return { form: { ...form, ...changes }, changed };
  });
  if (result.changed) context.forms.invalidate();
  return { form: toFormInfo(context, result.form), defaultRateLimit: defaultRateLimit(context), changed: result.changed };
}

/** `svc forms set-rate-limit`: only the rate limit (null: the server's default). */
export async function setFormRateLimit(
  context: OperationContext,
  principal: Principal,
  input: FormInput & { rateLimit: RateLimit | null },
): Promise<{ form: FormInfo; defaultRateLimit: RateLimit; changed: boolean }> {
  return updateFormSettings(context, principal, { ...input, rateLimit: input.rateLimit });
}

type SettingsColumns = Partial<
  Pick<FormRow, 'success_url' | 'error_url' | 'notify_emails' | 'rate_limit_max' | 'rate_limit_window_seconds' | 'retention_seconds' | 'captcha' | 'captcha_secret' | 'max_links' | 'origins'>
>;

/**
 * The secret sealed for this form (a new seal differs each time, so a secret given again
 * counts as a change), and the rule that Turnstile and hCaptcha need one: given now or kept.
 */
function withCaptchaSecret(context: OperationContext, form: FormRow, columns: SettingsColumns, secret: string | null | undefined): SettingsColumns {
  const changes: SettingsColumns = { ...columns };
  if (secret !== undefined) changes.captcha_secret = secret === null ? null : context.secrets.seal(secret, captchaSecretContext(form.id));
  const captcha = changes.captcha ?? form.captcha;
  const stored = changes.captcha_secret !== undefined ? changes.captcha_secret : form.captcha_secret;
  if ((captcha === 'turnstile' || captcha === 'hcaptcha') && stored === null) {
    const errors = { captchaSecret: `${captcha} needs the provider's secret key (svc forms set --captcha-secret-env VAR)` };
    throw new ServiceError('validation_failed', `captchaSecret ${errors.captchaSecret}`, { errors });
  }
  return changes;
}

/** Whether the server can send notification emails (`--smtp-url` and `--mail-from`). */
export function notificationsConfigured(context: OperationContext): boolean {
  return context.options.smtpUrl !== undefined && context.options.mailFrom !== undefined;
}

function checkedSettings(context: OperationContext, input: FormSettingsChange): SettingsColumns {
  const errors: Record<string, string> = {};
  const columns: SettingsColumns = {};
  for (const [key, column] of [['successUrl', 'success_url'], ['errorUrl', 'error_url']] as const) {
    const value = input[key];
    if (value === undefined) continue;
    const url = value === null ? null : httpUrl(value);
    if (value === null) columns[column] = null;
    else if (url === null) errors[key] = 'must be an absolute http:// or https:// URL';
    else columns[column] = url.href;
  }
  if (input.notify !== undefined) {
    const addresses = [...new Set(input.notify.map((address) => address.trim()))];
    const invalid = addresses.filter((address) => !isValidEmail(address));
    if (invalid.length > 0) errors['notify'] = `not valid email addresses: ${invalid.join(', ')}`;
    else if (addresses.length > maxNotifyAddresses) errors['notify'] = `at most ${maxNotifyAddresses} addresses`;
    else if (addresses.length > 0 && !notificationsConfigured(context)) errors['notify'] = 'email notifications need the server started with --smtp-url and --mail-from';
    else columns.notify_emails = addresses.length === 0 ? null : JSON.stringify(addresses);
  }
  if (input.rateLimit !== undefined) {
    if (input.rateLimit !== null) {
      try {
        checkRateLimit(input.rateLimit);
      } catch (error) {
        errors['rateLimit'] = (error as Error).message;
      }
    }
    columns.rate_limit_max = input.rateLimit?.max ?? null;
    columns.rate_limit_window_seconds = input.rateLimit?.windowSeconds ?? null;
  }
  if (input.retentionSeconds !== undefined) {
    const value = input.retentionSeconds;
    if (value !== null && (!Number.isSafeInteger(value) || value < formRetentionSeconds.min || value > formRetentionSeconds.max)) errors['retentionSeconds'] = 'must be from 60 seconds to 10 years, or null';
    else columns.retention_seconds = value;
  }
  if (input.captcha !== undefined) {
    if (isCaptchaKind(input.captcha)) columns.captcha = input.captcha;
    else errors['captcha'] = `must be ${captchaKinds.slice(0, -1).join(', ')} or ${captchaKinds.at(-1)}`;
  }
  if (input.captchaSecret !== undefined && input.captchaSecret !== null && (input.captchaSecret.trim() !== input.captchaSecret || input.captchaSecret === '' || hasControlCharacter(input.captchaSecret))) {
    errors['captchaSecret'] = 'must be the provider\'s secret key, without spaces around it or control characters';
  }
  if (input.maxLinks !== undefined) {
    const value = input.maxLinks;
    if (value !== null && (!Number.isSafeInteger(value) || value < 0 || value > maxLinksLimit)) errors['maxLinks'] = `must be from 0 to ${maxLinksLimit}, or null for no limit`;
    else columns.max_links = value;
  }
  if (input.origins !== undefined) {
    try {
      columns.origins = normalizeOrigins(input.origins);
    } catch (error) {
      errors['origins'] = (error as Error).message;
    }
  }
  const problems = Object.entries(errors);
  if (problems.length > 0) throw new ServiceError('validation_failed', problems.map(([name, problem]) => `${name} ${problem}`).join('; '), { errors });
  return columns;
}

function hasControlCharacter(text: string): boolean {
  return [...text].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f);
}
