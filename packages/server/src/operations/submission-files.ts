import type { Readable } from 'node:stream';
import { ServiceError, type SubmissionFile } from '@svc/protocol';
import { findFormSubmission } from '../store/queries/submissions.js';
import type { OperationContext, Principal } from './context.js';
import { formInScope, type FormInput } from './forms.js';

export interface SubmissionFileDownload {
  readonly name: string;
  readonly contentType: string;
  readonly size: number;
  readonly content: Readable;
}

/**
 * One file of a submission, by its position in the submission's file list, for download.
 * The caller sends it as an attachment with `nosniff`: user files are never rendered inline.
 */
export async function openSubmissionFile(context: OperationContext, principal: Principal, input: FormInput & { id: string; index: number }): Promise<SubmissionFileDownload> {
  const { form } = await formInScope(context.store.db, principal, input);
  const row = await findFormSubmission(context.store.db, form.id, input.id);
  if (!row) throw new ServiceError('not_found', `no submission "${input.id}" in form "${input.slug}"`);
  const file = (JSON.parse(row.files) as SubmissionFile[])[input.index];
  if (!file) throw new ServiceError('not_found', `submission ${input.id} has no file ${input.index}`);
  const content = await context.store.files.open(file.sha256);
  if (!content) throw new ServiceError('not_found', `the contents of "${file.name}" are no longer stored`);
  return { name: file.name, contentType: file.contentType, size: file.size, content };
}
