import { newId } from '../../ids.js';
import type { FormRow } from '../schema.js';
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
  };
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
    position: form.position ?? 0,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('forms').values(row).execute();
  return row;
}
