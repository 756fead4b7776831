import type { SubmissionFile } from '@svc/protocol';
import { newId } from '../lib/ids.js';
import type { ResolvedForm } from '../store/queries/forms.js';
import { outboxRow } from '../store/queries/outbox.js';
import type { PreparedSubmission } from '../store/submission-batch.js';
import type { SpamReason, SubmissionState } from '../store/schema.js';

export interface SubmissionInput {
  readonly form: ResolvedForm;
  readonly state: SubmissionState;
  /** Why it goes to Spam; null for the inbox. */
  readonly spamReason: SpamReason | null;
  readonly fields: Record<string, unknown>;
  readonly files: readonly SubmissionFile[];
  readonly clientIp: string | null;
  readonly userAgent: string | null;
  readonly idempotencyKey: string | null;
  readonly receivedAt: number;
}

/**
 * Builds the submission row and its outbox event (docs/webhooks.md): the event's payload is the
 * exact JSON body every webhook delivery will carry and sign.
 */
export function prepareSubmission(input: SubmissionInput): PreparedSubmission {
  const submissionId = newId('sub', input.receivedAt);
  const eventId = newId('evt', input.receivedAt);
  const createdAt = new Date(input.receivedAt).toISOString();
  const type = input.state === 'spam' ? 'form.submission.spam' : 'form.submission.created';
  // The fields are serialised once and spliced into the payload: on the hot path the second
  // JSON.stringify of them cost as much as the rest of this function.
  const fields = JSON.stringify(input.fields);
  const files = JSON.stringify(input.files);
  return {
    submission: {
      id: submissionId,
      form_id: input.form.id,
      state: input.state,
      fields,
      files,
      client_ip: input.clientIp,
      user_agent: input.userAgent,
      idempotency_key: input.idempotencyKey,
      spam_reason: input.spamReason,
      created_at: input.receivedAt,
    },
    event: outboxRow({
      id: eventId,
      projectId: input.form.projectId,
      type,
      payload: eventPayload({ eventId, type, createdAt, form: input.form, submissionId, spamReason: input.spamReason }, fields, files),
      now: input.receivedAt,
    }),
  };
}

type SubmissionEventType = 'form.submission.created' | 'form.submission.spam';

/** The parts of an event payload that are not the already serialised fields and files. */
export interface EventParts {
  readonly eventId: string;
  readonly type: SubmissionEventType;
  readonly createdAt: string;
  /** When the submission arrived, when that is not when the event was made (a move). */
  readonly submittedAt?: string;
  readonly form: Pick<ResolvedForm, 'endpointId' | 'slug' | 'name' | 'workspaceSlug' | 'projectName'>;
  readonly submissionId: string;
  /** `form.submission.spam`'s `data.submission.spamReason`; null leaves it out. */
  readonly spamReason?: SpamReason | null;
}

/**
 * `JSON.stringify` of the event envelope (docs/webhooks.md, `EventEnvelope` in @svc/protocol),
 * byte for byte, written out with the serialised fields and files spliced in; a unit test
 * keeps the two in step.
 */
export function eventPayload(parts: EventParts, fields: string, files: string): string {
  const text = JSON.stringify;
  const { form } = parts;
  return (
    `{"id":${text(parts.eventId)},"type":${text(parts.type)},"createdAt":${text(parts.createdAt)},` +
    `"workspace":${text(form.workspaceSlug)},"project":${text(form.projectName)},` +
    `"data":{"form":{"id":${text(form.endpointId)},"slug":${text(form.slug)},"name":${text(form.name)}},` +
    `"submission":{"id":${text(parts.submissionId)},"fields":${fields},"files":${files},"createdAt":${text(parts.submittedAt ?? parts.createdAt)}` +
    `${parts.spamReason ? `,"spamReason":${text(parts.spamReason)}` : ''}}}}`
  );
}
