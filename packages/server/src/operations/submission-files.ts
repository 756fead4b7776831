import type { Readable } from 'node:stream';
import { ServiceError, type SubmissionFile } from '@svc/protocol';
import { findProjectSubmission } from '../store/queries/submission-changes.js';
import { recordAudit } from './audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { projectInScope } from './scope.js';
import type { SubmissionInput } from './submission-changes.js';

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
export async function openSubmissionFile(context: OperationContext, principal: Principal, input: SubmissionInput & { index: number }): Promise<SubmissionFileDownload> {
  const { workspace, project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const found = await findProjectSubmission(context.store.db, project.id, input.id);
  if (!found) throw new ServiceError('not_found', `no submission "${input.id}" in project "${input.project}"`);
  const file = (JSON.parse(found.submission.files) as SubmissionFile[])[input.index];
  if (!file) throw new ServiceError('not_found', `submission ${input.id} has no file ${input.index}`);
  const content = await context.store.files.open(file.sha256);
  if (!content) throw new ServiceError('not_found', `the contents of "${file.name}" are no longer stored`);
  try {
    await context.store.transaction((trx) => recordAudit(trx, context, principal, { action: 'submission.downloaded', workspaceId: workspace.id, projectId: project.id, object: { type: 'submission', id: found.submission.id } }));
  } catch (error) {
    content.destroy();
    throw error;
  }
  return { name: file.name, contentType: file.contentType, size: file.size, content };
}
