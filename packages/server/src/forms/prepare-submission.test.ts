import type { EventEnvelope } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import type { ResolvedForm } from '../store/queries/forms.js';
import { eventPayload, prepareSubmission } from './prepare-submission.js';

const form: ResolvedForm = {
  id: 'frm_1',
  projectId: 'prj_1',
  endpointId: 'e9x2',
  slug: 'contact',
  name: 'Contact "us" \u2028 — ünïcode',
  workspaceSlug: 'acme',
  successUrl: null,
  errorUrl: null,
  notify: [],
  projectName: 'site\\with\\backslashes',
  rateLimit: null, captcha: 'none', captchaSecret: null, maxLinks: null, origins: 'any',
};

describe('the event payload', () => {
  it('is exactly JSON.stringify of the typed envelope, whatever the fields', () => {
    const fields = { email: 'a@b.co', nested: { list: [1, null, '\u0000', '\ud800'] }, '': 'empty key', 'quote"key': 'x' };
    const files = [{ field: 'cv', name: 'cv "1".pdf', size: 3, contentType: 'application/pdf', sha256: 'ab' }];
    const prepared = prepareSubmission({ form, state: 'spam', spamReason: 'links', fields, files, clientIp: null, userAgent: null, idempotencyKey: null, receivedAt: Date.UTC(2026, 10, 21) });
    const envelope: EventEnvelope<'form.submission.spam'> = {
      id: prepared.event.id,
      type: 'form.submission.spam',
      createdAt: '2026-11-21T00:00:00.000Z',
      workspace: form.workspaceSlug,
      project: form.projectName,
      data: {
        form: { id: form.endpointId, slug: form.slug, name: form.name },
        submission: { id: prepared.submission.id, fields, files, createdAt: '2026-11-21T00:00:00.000Z', spamReason: 'links' },
      },
    };
    expect(prepared.event.payload).toBe(JSON.stringify(envelope));
    expect(prepared.submission.fields).toBe(JSON.stringify(fields));
    expect(prepared.event.type).toBe('form.submission.spam');
  });

  it('writes a form without a name as null', () => {
    const payload = eventPayload({ eventId: 'evt_1', type: 'form.submission.created', createdAt: 'now', form: { ...form, name: null }, submissionId: 'sub_1' }, '{}', '[]');
    expect(JSON.parse(payload)).toMatchObject({ data: { form: { name: null }, submission: { fields: {}, files: [] } } });
  });
});
