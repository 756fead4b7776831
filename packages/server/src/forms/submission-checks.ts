import type { ResolvedForm } from '../store/queries/forms.js';
import type { SubmissionState } from '../store/schema.js';
import type { PostInstructions } from './instructions.js';

/** What the checks of a submission see: its form, its fields and how it was sent. */
export interface CheckedSubmission {
  readonly form: ResolvedForm;
  /** The fields to store (instructions and the honeypot field already taken out). */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly instructions: PostInstructions;
  readonly client: SubmissionClient;
}

/** Who sent a submission, as far as the request tells. */
export interface SubmissionClient {
  /** The client's whole address (the rate limiter's); what is stored is cut by the form's IP mode. */
  readonly address: string;
  readonly userAgent: string | null;
  /** The honeypot request header was sent (docs/form-endpoint.md, "Spam"). */
  readonly honeypotHeader: boolean;
}

/** A check's verdict on a submission that it lets through: stored in the inbox, or as spam. */
export type CheckVerdict = { readonly spam: false } | { readonly spam: true; readonly reason: string };

/**
 * One check of a submission whose fields are valid, before anything is stored. It lets the
 * submission through, marks it as spam (stored, but no `form.submission.created` event), or
 * refuses it by throwing a ServiceError (nothing stored, the error answered).
 */
export type SubmissionCheck = (submission: CheckedSubmission) => CheckVerdict | Promise<CheckVerdict>;

export const passes: CheckVerdict = { spam: false };

/** The honeypot field or header holds anything. */
export const honeypotCheck: SubmissionCheck = ({ instructions, client }) =>
  client.honeypotHeader || instructions.honeypot ? { spam: true, reason: 'honeypot' } : passes;

/**
 * The form endpoint's checks, in the order they run: cheap ones first. The first that marks
 * the submission as spam or refuses it ends the checks.
 */
export const submissionChecks: readonly SubmissionCheck[] = [honeypotCheck];

/** Runs the checks in order: the submission is spam as soon as one of them says so. */
export async function classifySubmission(submission: CheckedSubmission, checks: readonly SubmissionCheck[] = submissionChecks): Promise<SubmissionState> {
  for (const check of checks) {
    if ((await check(submission)).spam) return 'spam';
  }
  return 'inbox';
}
