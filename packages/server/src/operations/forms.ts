import { ServiceError } from '@svc/protocol';
import type { FormInfo, RateLimit } from '@svc/protocol/api';
import { checkPolicy } from '../ratelimit/policy.js';
import { findProjectForm, listProjectForms, updateForm } from '../store/queries/forms.js';
import type { FormRow } from '../store/schema.js';
import type { Db } from '../store/store.js';
import type { OperationContext, Principal } from './context.js';
import { toFormInfo } from './form-info.js';
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

/**
 * `svc forms set-rate-limit`: the form's own limit per client IP (null: the server's
 * default). The form endpoint applies it at once in this process, within seconds elsewhere.
 */
export async function setFormRateLimit(
  context: OperationContext,
  principal: Principal,
  input: FormInput & { rateLimit: RateLimit | null },
): Promise<{ form: FormInfo; defaultRateLimit: RateLimit; changed: boolean }> {
  if (input.rateLimit !== null) {
    try {
      checkPolicy(input.rateLimit);
    } catch (error) {
      throw new ServiceError('validation_failed', (error as Error).message, { errors: { rateLimit: (error as Error).message } });
    }
  }
  const result = await context.store.transaction(async (trx) => {
    const { form } = await formInScope(trx, principal, input);
    const max = input.rateLimit?.max ?? null;
    const windowSeconds = input.rateLimit?.windowSeconds ?? null;
    const changed = form.rate_limit_max !== max || form.rate_limit_window_seconds !== windowSeconds;
    if (changed) await updateForm(trx, form.id, { rate_limit_max: max, rate_limit_window_seconds: windowSeconds }, context.now());
    return { form: { ...form, rate_limit_max: max, rate_limit_window_seconds: windowSeconds }, changed };
  });
  if (result.changed) context.forms.invalidate();
  return { form: toFormInfo(context, result.form), defaultRateLimit: defaultRateLimit(context), changed: result.changed };
}
