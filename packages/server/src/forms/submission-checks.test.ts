import { describe, expect, it } from 'vitest';
import { ServiceError } from '@svc/protocol';
import type { ResolvedForm } from '../store/queries/forms.js';
import { classifySubmission, passes, type CheckedSubmission, type SubmissionCheck } from './submission-checks.js';

const form: ResolvedForm = {
  id: 'frm_1',
  endpointId: 'e1',
  slug: 'contact',
  name: null,
  projectId: 'prj_1',
  projectName: 'site',
  workspaceSlug: 'agency',
  rateLimit: null,
  successUrl: null,
  errorUrl: null,
  notify: [],
};

function submission(overrides: { honeypot?: boolean; honeypotHeader?: boolean } = {}): CheckedSubmission {
  return {
    form,
    fields: { email: 'ada@example.com' },
    instructions: { redirect: null, honeypot: overrides.honeypot ?? false },
    client: { address: '203.0.113.7', userAgent: null, honeypotHeader: overrides.honeypotHeader ?? false },
  };
}

describe('the checks a valid submission goes through', () => {
  it('puts a submission in the inbox when the honeypot is empty', async () => {
    expect(await classifySubmission(submission())).toBe('inbox');
  });

  it('marks a submission as spam when the honeypot field or header holds anything', async () => {
    expect(await classifySubmission(submission({ honeypot: true }))).toBe('spam');
    expect(await classifySubmission(submission({ honeypotHeader: true }))).toBe('spam');
  });

  it('runs the checks in order and stops at the first that says spam', async () => {
    const ran: string[] = [];
    const named = (name: string, spam: boolean): SubmissionCheck => () => {
      ran.push(name);
      return spam ? { spam: true, reason: name } : passes;
    };
    expect(await classifySubmission(submission(), [named('a', false), named('b', true), named('c', false)])).toBe('spam');
    expect(ran).toEqual(['a', 'b']);
  });

  it('lets a check refuse the submission with its error', async () => {
    const refuse: SubmissionCheck = () => {
      throw new ServiceError('validation_failed', 'refused');
    };
    await expect(classifySubmission(submission(), [refuse])).rejects.toMatchObject({ code: 'validation_failed' });
  });
});
