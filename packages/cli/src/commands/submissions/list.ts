import { cliPaths, ServiceError, submissionPageSize } from '@svc/protocol';
import { ListSubmissionsResponse, type SubmissionInfo } from '@svc/protocol/api';
import type { ContextOf } from '../../command.js';
import { parsePageLimit } from '../../page-limit.js';
import { callProject } from '../../server-call.js';
import type { submissionsList } from './commands.js';

const summaryWidth = 72;

/** `svc submissions list`: a table for people, the page as JSON for scripts. */
export async function list(context: ContextOf<typeof submissionsList>): Promise<number> {
  const { options, out } = context;
  const form = requireForm(options.form);
  const limit = options.limit === undefined ? undefined : parsePageLimit(options.limit, submissionPageSize.max);
  const state = options.spam ? 'spam' : 'inbox';
  return callProject(
    context,
    ({ api, ref }) => api.get(cliPaths.submissions(ref.workspace, ref.project, form), ListSubmissionsResponse, { state, limit, cursor: options.cursor }),
    (page) => {
      if (page.submissions.length === 0) return options.cursor === undefined ? `No submissions in the ${state} of ${form}.` : 'No more submissions.';
      return out.table(page.submissions, [
        { header: 'ID', value: (submission) => submission.id },
        { header: 'RECEIVED', value: (submission) => submission.createdAt },
        ...(state === 'spam' ? [{ header: 'REASON', value: (submission: (typeof page.submissions)[number]) => submission.spamReason ?? '' }] : []),
        { header: 'FIELDS', value: (submission) => summarize(submission) },
      ]);
    },
    (page) =>
      page.nextCursor !== null &&
      `More: svc submissions list --form ${form}${options.spam ? ' --spam' : ''}${limit === undefined ? '' : ` --limit ${limit}`} --cursor ${page.nextCursor}`,
  );
}

/** `--form` is required by every submissions command. */
export function requireForm(form: string | undefined): string {
  if (form === undefined || form === '') throw new ServiceError('usage', 'pass the form with --form <slug> (`svc forms list` shows them)');
  return form;
}

/** `email=ada@example.com name=Ada files=cv.pdf`, cut to fit one line. */
function summarize(submission: SubmissionInfo): string {
  const parts = Object.entries(submission.fields).map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  if (submission.files.length > 0) parts.push(`files=${submission.files.map((file) => file.name).join(',')}`);
  const text = parts.join(' ').replace(/\s+/g, ' ');
  return text.length > summaryWidth ? `${text.slice(0, summaryWidth - 1)}…` : text;
}
