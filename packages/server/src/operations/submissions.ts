import { submissionPageSize } from '@svc/protocol';
import type { ListSubmissionsResponse, SubmissionState } from '@svc/protocol/api';
import { countSubmissions, pageSubmissionsNewestFirst } from '../store/queries/submissions.js';
import type { OperationContext, Principal } from './context.js';
import { formInScope, type FormInput } from './forms.js';
import { submissionCursors } from './listing-cursor.js';
import { toSubmissionInfo } from './submission-info.js';

export interface ListSubmissionsInput extends FormInput {
  readonly state: SubmissionState;
  readonly limit: number | undefined;
  readonly cursor: string | undefined;
}

/** `svc submissions list`: one page of a form's inbox or spam, newest first. */
export async function listSubmissions(context: OperationContext, principal: Principal, input: ListSubmissionsInput): Promise<ListSubmissionsResponse> {
  const db = context.store.db;
  const { form } = await formInScope(db, principal, input);
  const limit = Math.min(Math.max(input.limit ?? submissionPageSize.default, 1), submissionPageSize.max);
  const after = input.cursor === undefined ? null : submissionCursors[input.state].decode(input.cursor);
  const rows = await pageSubmissionsNewestFirst(db, form.id, input.state, after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    ok: true,
    state: input.state,
    submissions: page.map(toSubmissionInfo),
    nextCursor: rows.length > limit && last ? submissionCursors[input.state].encode(last.id) : null,
  };
}

/** How many submissions a form holds in its inbox and its spam (the form page's tabs). */
export async function countFormSubmissions(context: OperationContext, principal: Principal, input: FormInput): Promise<Record<SubmissionState, number>> {
  const { form } = await formInScope(context.store.db, principal, input);
  return countSubmissions(context.store.db, form.id);
}
