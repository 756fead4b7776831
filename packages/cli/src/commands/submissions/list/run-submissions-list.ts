import { cliPaths, ServiceError, submissionPageSize } from '@svc/protocol';
import { ListSubmissionsResponse, type SubmissionInfo } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';
import { resolveProject } from '../../../project/project-ref.js';
import { requireForm } from '../require-form.js';

export interface SubmissionsListFlags {
  workspace?: string;
  project?: string;
  form?: string;
  spam?: boolean;
  limit?: string;
  cursor?: string;
}

const summaryWidth = 72;

/** `svc submissions list`: a table for people, the page as JSON for scripts. */
export async function runSubmissionsList({ options, io, out }: CommandContext<SubmissionsListFlags>): Promise<number> {
  const form = requireForm(options.form);
  const limit = options.limit === undefined ? undefined : parseLimit(options.limit);
  const ref = await resolveProject(io, options);
  const api = await connect(io);
  const state = options.spam ? 'spam' : 'inbox';
  const page = await api.get(cliPaths.submissions(ref.workspace, ref.project, form), ListSubmissionsResponse, { state, limit, cursor: options.cursor });

  out.result(page, () => {
    if (page.submissions.length === 0) return options.cursor === undefined ? `No submissions in the ${state} of ${form}.` : 'No more submissions.';
    return out.table(page.submissions, [
      { header: 'ID', value: (submission) => submission.id },
      { header: 'RECEIVED', value: (submission) => submission.createdAt },
      { header: 'FIELDS', value: (submission) => summarize(submission) },
    ]);
  });
  if (!out.json && page.nextCursor !== null) {
    out.note(`More: svc submissions list --form ${form}${options.spam ? ' --spam' : ''}${limit === undefined ? '' : ` --limit ${limit}`} --cursor ${page.nextCursor}`);
  }
  return 0;
}

function parseLimit(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < 1 || value > submissionPageSize.max) {
    throw new ServiceError('usage', `--limit must be a whole number from 1 to ${submissionPageSize.max}`);
  }
  return value;
}

/** `email=ada@example.com name=Ada files=cv.pdf`, cut to fit one line. */
function summarize(submission: SubmissionInfo): string {
  const parts = Object.entries(submission.fields).map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  if (submission.files.length > 0) parts.push(`files=${submission.files.map((file) => file.name).join(',')}`);
  const text = parts.join(' ').replace(/\s+/g, ' ');
  return text.length > summaryWidth ? `${text.slice(0, summaryWidth - 1)}…` : text;
}
