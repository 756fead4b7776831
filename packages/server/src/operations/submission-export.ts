import { maxExportColumns, type ExportHeaderLine, type ExportLine, type SubmissionState } from '@svc/protocol/api';
import { newestSubmissionId, pageSubmissionsOldestFirst } from '../store/queries/submissions.js';
import type { Db } from '../store/store.js';
import { recordAudit } from './audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { formInScope, type FormInput } from './forms.js';
import { toSubmissionInfo } from './submission-info.js';

/** Rows read per query: memory stays bounded by one page whatever the size of the export. */
const pageSize = 100;

export interface SubmissionExport {
  readonly header: ExportHeaderLine;
  /** The header, every submission oldest first, then the `end` line. */
  lines(): AsyncGenerator<ExportLine>;
}

/**
 * `svc submissions export`: every submission of a form in one state, as a snapshot of what
 * was stored when the export started. A first pass reads the field names (for the CSV
 * header), a second streams the submissions; both page through the table.
 */
export async function exportSubmissions(
  context: OperationContext,
  principal: Principal,
  input: FormInput & { state: SubmissionState },
): Promise<SubmissionExport> {
  const db = context.store.db;
  const { workspace, project, form } = await formInScope(db, principal, input);
  await context.store.transaction((trx) => recordAudit(trx, context, principal, { action: 'submissions.exported', workspaceId: workspace.id, projectId: project.id, object: { type: 'form', id: form.slug } }));
  const upToId = await newestSubmissionId(db, form.id, input.state);
  // Field names are chosen by whoever posts: the columns stop at maxExportColumns, so the
  // header (and every CSV row) stays proportional to the data, not to rows × names.
  const fields = new Set<string>();
  const fileFields = new Set<string>();
  let otherFields = false;
  const take = (set: Set<string>, name: string) => {
    if (set.has(name)) return;
    if (fields.size + fileFields.size >= maxExportColumns && !fields.has(name) && !fileFields.has(name)) otherFields = true;
    else set.add(name);
  };
  let count = 0;
  if (upToId !== null) {
    for await (const row of pages(db, form.id, input.state, upToId)) {
      count += 1;
      for (const name of Object.keys(JSON.parse(row.fields) as object)) take(fields, name);
      for (const file of JSON.parse(row.files) as { field: string }[]) take(fileFields, file.field);
    }
  }
  const header: ExportHeaderLine = { type: 'header', state: input.state, count, fields: [...fields], fileFields: [...fileFields], ...(otherFields ? { otherFields } : {}) };
  return {
    header,
    async *lines() {
      yield header;
      let sent = 0;
      if (upToId !== null) {
        for await (const row of pages(db, form.id, input.state, upToId)) {
          sent += 1;
          yield { type: 'submission', submission: toSubmissionInfo(row) };
        }
      }
      yield { type: 'end', count: sent };
    },
  };
}

async function* pages(db: Db, formId: string, state: SubmissionState, upToId: string) {
  let afterId: string | null = null;
  for (;;) {
    const rows = await pageSubmissionsOldestFirst(db, formId, state, { afterId, upToId }, pageSize);
    yield* rows;
    const last = rows.at(-1);
    if (rows.length < pageSize || !last) return;
    afterId = last.id;
  }
}
