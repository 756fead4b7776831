import type { ExportHeaderLine, SubmissionInfo } from '../api/submissions.js';
import { cellText, csvRecord, neutralizeFormula } from './csv.js';

/** Columns before the submitted fields; an export of Spam adds `spam_reason`. */
const metaColumns = ['submission_id', 'submitted_at', 'spam_reason'] as const;

interface Column {
  readonly header: string;
  readonly field: string;
}

/** The last column when the submissions use more field names than an export has columns. */
const otherFieldsColumn = 'other_fields';

/**
 * Submissions as CSV rows: `submission_id`, `submitted_at` (and for Spam `spam_reason`), then one column per field name
 * used by any exported submission (the union, in order of first use; a field that carried
 * files holds the file names, `; `-separated). A field named like a meta column is headed
 * `field:<name>`. Past `maxExportColumns` names, the rest of each submission's fields go
 * into one `other_fields` column as a JSON object (files as lists of their names). Every
 * cell that came from a submitter (values, file names, field names) is kept from running
 * as a spreadsheet formula unless `raw` is asked for.
 */
export class SubmissionCsv {
  private readonly columns: readonly Column[];
  private readonly columnNames: ReadonlySet<string>;
  private readonly otherFields: boolean;
  private readonly cell: (value: string) => string;
  private readonly spam: boolean;

  constructor(header: Pick<ExportHeaderLine, 'fields' | 'fileFields' | 'otherFields'> & { readonly state?: ExportHeaderLine['state'] }, options: { readonly raw?: boolean } = {}) {
    this.spam = header.state === 'spam';
    this.cell = options.raw === true ? (value) => value : neutralizeFormula;
    const names = [...new Set([...header.fields, ...header.fileFields])];
    this.columns = names.map((field) => ({ field, header: (metaColumns as readonly string[]).includes(field) || field === otherFieldsColumn ? `field:${field}` : field }));
    this.columnNames = new Set(names);
    this.otherFields = header.otherFields === true;
  }

  headerRecord(): string {
    return csvRecord([...metaColumns.slice(0, this.spam ? 3 : 2), ...this.columns.map((column) => this.cell(column.header)), ...(this.otherFields ? [otherFieldsColumn] : [])]);
  }

  record(submission: SubmissionInfo): string {
    const cells = this.columns.map(({ field }) => {
      const parts: string[] = [];
      if (Object.hasOwn(submission.fields, field)) parts.push(cellText(submission.fields[field]));
      const files = submission.files.filter((file) => file.field === field).map((file) => file.name);
      if (files.length > 0) parts.push(files.join('; '));
      return this.cell(parts.join('; '));
    });
    if (this.otherFields) cells.push(this.cell(this.otherFieldsCell(submission)));
    return csvRecord([submission.id, submission.createdAt, ...(this.spam ? [submission.spamReason ?? ''] : []), ...cells]);
  }

  private otherFieldsCell(submission: SubmissionInfo): string {
    const rest: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(submission.fields)) if (!this.columnNames.has(name)) rest[name] = value;
    for (const file of submission.files) {
      if (this.columnNames.has(file.field)) continue;
      const key = Object.hasOwn(submission.fields, file.field) ? `${file.field} (files)` : file.field;
      const names = (rest[key] as string[] | undefined) ?? [];
      names.push(file.name);
      rest[key] = names;
    }
    return Object.keys(rest).length === 0 ? '' : JSON.stringify(rest);
  }
}
