import type { ExportHeaderLine, SubmissionInfo } from '../api/submissions.js';
import { cellText, csvRecord, neutralizeFormula } from './csv.js';

/** Columns before the submitted fields. */
const metaColumns = ['submission_id', 'submitted_at'] as const;

interface Column {
  readonly header: string;
  readonly field: string;
}

/**
 * Submissions as CSV rows: `submission_id`, `submitted_at`, then one column per field name
 * used by any exported submission (the union, in order of first use; a field that carried
 * files holds the file names, `; `-separated). A field named like a meta column is headed
 * `field:<name>`. Every cell that came from a submitter (values, file names, field names)
 * is kept from running as a spreadsheet formula unless `raw` is asked for.
 */
export class SubmissionCsv {
  private readonly columns: readonly Column[];
  private readonly cell: (value: string) => string;

  constructor(header: Pick<ExportHeaderLine, 'fields' | 'fileFields'>, options: { readonly raw?: boolean } = {}) {
    this.cell = options.raw === true ? (value) => value : neutralizeFormula;
    const names = [...header.fields, ...header.fileFields.filter((name) => !header.fields.includes(name))];
    this.columns = names.map((field) => ({ field, header: (metaColumns as readonly string[]).includes(field) ? `field:${field}` : field }));
  }

  headerRecord(): string {
    return csvRecord([...metaColumns, ...this.columns.map((column) => this.cell(column.header))]);
  }

  record(submission: SubmissionInfo): string {
    const cells = this.columns.map(({ field }) => {
      const parts: string[] = [];
      if (Object.hasOwn(submission.fields, field)) parts.push(cellText(submission.fields[field]));
      const files = submission.files.filter((file) => file.field === field).map((file) => file.name);
      if (files.length > 0) parts.push(files.join('; '));
      return this.cell(parts.join('; '));
    });
    return csvRecord([submission.id, submission.createdAt, ...cells]);
  }
}
