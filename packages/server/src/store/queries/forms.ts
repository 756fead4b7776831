import { newId } from '../../lib/ids.js';
import type { CaptchaKind, FormRow } from '../schema.js';
import type { Db } from '../store.js';

/** What the form endpoint needs to know about a form, resolved from its endpoint id. */
export interface ResolvedForm {
  id: string;
  endpointId: string;
  slug: string;
  name: string | null;
  projectId: string;
  projectName: string;
  workspaceSlug: string;
  rateLimit: { max: number; windowSeconds: number } | null;
  /** Where a browser goes after a successful post, and after a failed one (docs/form-endpoint.md). */
  successUrl: string | null;
  errorUrl: string | null;
  /** Who is emailed about each new submission; empty when nobody is. */
  notify: string[];
  /** Spam protection (docs/form-endpoint.md, "Spam protection"): the captcha a post must solve. */
  captcha: CaptchaKind;
  /** The provider's secret key, sealed for the form's id; null when none. */
  captchaSecret: string | null;
  /** More links than this routes a submission to Spam; null: no limit. */
  maxLinks: number | null;
  /** Which browser origins may post: `any`, `project`, or a list as stored. */
  origins: string;
}

export async function findFormByEndpointId(db: Db, endpointId: string): Promise<ResolvedForm | null> {
  const row = await db
    .selectFrom('forms')
    .innerJoin('projects', 'projects.id', 'forms.project_id')
    .innerJoin('workspaces', 'workspaces.id', 'projects.workspace_id')
    .select([
      'forms.id',
      'forms.endpoint_id',
      'forms.slug',
      'forms.name',
      'forms.project_id',
      'forms.rate_limit_max',
      'forms.rate_limit_window_seconds',
      'forms.success_url',
      'forms.error_url',
      'forms.notify_emails',
      'forms.captcha',
      'forms.captcha_secret',
      'forms.max_links',
      'forms.origins',
      'projects.name as project_name',
      'workspaces.slug as workspace_slug',
    ])
    .where('forms.endpoint_id', '=', endpointId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    slug: row.slug,
    name: row.name,
    projectId: row.project_id,
    projectName: row.project_name,
    workspaceSlug: row.workspace_slug,
    rateLimit:
      row.rate_limit_max !== null && row.rate_limit_window_seconds !== null
        ? { max: row.rate_limit_max, windowSeconds: row.rate_limit_window_seconds }
        : null,
    successUrl: row.success_url,
    errorUrl: row.error_url,
    notify: parseNotifyEmails(row.notify_emails),
    captcha: row.captcha,
    captchaSecret: row.captcha_secret,
    maxLinks: row.max_links,
    origins: row.origins,
  };
}

/** The `notify_emails` column: a JSON array of addresses, or null for none. */
export function parseNotifyEmails(text: string | null): string[] {
  if (text === null) return [];
  const value = JSON.parse(text) as unknown;
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export interface NewForm {
  projectId: string;
  slug: string;
  name: string | null;
  endpointId: string;
  rateLimit?: { max: number; windowSeconds: number } | null;
  position?: number;
}

export async function insertForm(db: Db, form: NewForm, now = Date.now()): Promise<FormRow> {
  const row: FormRow = {
    id: newId('frm', now),
    project_id: form.projectId,
    slug: form.slug,
    name: form.name,
    endpoint_id: form.endpointId,
    rate_limit_max: form.rateLimit?.max ?? null,
    rate_limit_window_seconds: form.rateLimit?.windowSeconds ?? null,
    success_url: null,
    error_url: null,
    notify_emails: null,
    retention_seconds: null,
    captcha: 'none',
    captcha_secret: null,
    max_links: null,
    origins: 'any',
    position: form.position ?? 0,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('forms').values(row).execute();
  return row;
}

/** A project's forms in service.json order (position, then creation). */
export async function listProjectForms(db: Db, projectId: string): Promise<FormRow[]> {
  return db.selectFrom('forms').selectAll().where('project_id', '=', projectId).orderBy('position').orderBy('created_at').orderBy('id').execute();
}

/** A form by its id (the notification targets' upgrade reads its addresses). */
export async function findFormById(db: Db, id: string): Promise<FormRow | undefined> {
  return db.selectFrom('forms').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findProjectForm(db: Db, projectId: string, slug: string): Promise<FormRow | undefined> {
  return db.selectFrom('forms').selectAll().where('project_id', '=', projectId).where('slug', '=', slug).executeTakeFirst();
}

export async function updateForm(
  db: Db,
  formId: string,
  changes: Partial<Pick<FormRow, 'name' | 'position' | 'rate_limit_max' | 'rate_limit_window_seconds' | 'success_url' | 'error_url' | 'notify_emails' | 'retention_seconds' | 'captcha' | 'captcha_secret' | 'max_links' | 'origins'>>,
  now = Date.now(),
): Promise<void> {
  await db
    .updateTable('forms')
    .set({ ...changes, updated_at: now })
    .where('id', '=', formId)
    .execute();
}

/** Removes a form whose submissions are gone already (operations/submission-erasure.ts), with what is left of its idempotency keys. */
export async function deleteForm(db: Db, formId: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('form_id', '=', formId).execute();
  await db.deleteFrom('forms').where('id', '=', formId).execute();
}
