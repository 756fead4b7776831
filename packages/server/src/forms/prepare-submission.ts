import type { EventEnvelope, SubmissionFile } from '@svc/protocol';
import { newId } from '../ids.js';
import type { ResolvedForm } from '../store/queries/forms.js';
import type { PreparedSubmission } from '../store/queries/submission-batch.js';
import type { SubmissionState } from '../store/schema.js';

export interface SubmissionInput {
  readonly form: ResolvedForm;
  readonly state: SubmissionState;
  readonly fields: Record<string, unknown>;
  readonly files: readonly SubmissionFile[];
  readonly clientIp: string | null;
  readonly userAgent: string | null;
  readonly idempotencyKey: string | null;
  readonly receivedAt: number;
}

/**
 * Builds the submission row and its outbox event (DESIGN.md §4): the event's payload is the
 * exact JSON body every webhook delivery will carry and sign.
 */
export function prepareSubmission(input: SubmissionInput): PreparedSubmission {
  const submissionId = newId('sub', input.receivedAt);
  const eventId = newId('evt', input.receivedAt);
  const createdAt = new Date(input.receivedAt).toISOString();
  const type = input.state === 'spam' ? 'form.submission.spam' : 'form.submission.created';
  const envelope: EventEnvelope<typeof type> = {
    id: eventId,
    type,
    createdAt,
    workspace: input.form.workspaceSlug,
    project: input.form.projectName,
    data: {
      form: { id: input.form.endpointId, slug: input.form.slug, name: input.form.name },
      submission: { id: submissionId, fields: input.fields, files: [...input.files], createdAt },
    },
  };
  return {
    submission: {
      id: submissionId,
      form_id: input.form.id,
      state: input.state,
      fields: JSON.stringify(input.fields),
      files: JSON.stringify(input.files),
      client_ip: input.clientIp,
      user_agent: input.userAgent,
      idempotency_key: input.idempotencyKey,
      created_at: input.receivedAt,
    },
    event: {
      id: eventId,
      project_id: input.form.projectId,
      type,
      payload: JSON.stringify(envelope),
      created_at: input.receivedAt,
      dispatched_at: null,
    },
  };
}
