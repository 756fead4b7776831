import { eventJsonSchema, eventTypes } from '@svc/protocol';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { eventPayload } from '../forms/prepare-submission.js';
import { sampleEvent } from './sample-event.js';

const ajv = new Ajv({ strict: true, allErrors: true });
const validators = new Map(eventTypes.map((type) => [type, ajv.compile(eventJsonSchema(type, `http://svc.test/schema/events/${type}.json`))]));

function problems(type: string, body: unknown): string[] {
  const validate = validators.get(type as never)!;
  return validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}

describe('the JSON Schema of each event type', () => {
  it.each(eventTypes)('%s is draft-07, names its type and accepts the sample that svc webhooks test sends', (type) => {
    const schema = eventJsonSchema(type, `http://svc.test/schema/events/${type}.json`);
    expect(schema).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#', $id: `http://svc.test/schema/events/${type}.json`, title: type });
    const sample = { ...sampleEvent(type, { eventId: 'evt_1', workspace: 'acme', project: 'site', now: Date.UTC(2026, 10, 21) }), test: true };
    expect(problems(type, sample)).toEqual([]);
    expect(problems(type, { ...sample, type: type === 'deploy.started' ? 'deploy.failed' : 'deploy.started' })).not.toEqual([]);
  });

  it('accepts the payload the form endpoint writes, and refuses one with a field the catalog does not have', () => {
    const form = { endpointId: 'ep1', slug: 'contact', name: null, workspaceSlug: 'acme', projectName: 'site' };
    const files = [{ field: 'cv', name: 'cv.pdf', size: 3, contentType: 'application/pdf', sha256: 'ab' }];
    const body = JSON.parse(eventPayload({ eventId: 'evt_1', type: 'form.submission.created', createdAt: '2026-11-21T10:00:00.000Z', form, submissionId: 'sub_1' }, '{"email":"a@b.co","n":[1]}', JSON.stringify(files))) as Record<string, unknown>;
    expect(problems('form.submission.created', body)).toEqual([]);
    expect(problems('form.submission.created', { ...body, extra: 1 })).not.toEqual([]);
  });

  it('accepts the tombstone an erased submission or request leaves in its events, and nothing half-erased', () => {
    const envelope = { id: 'evt_1', createdAt: '2026-11-21T10:00:00.000Z', workspace: 'acme', project: 'site' };
    const erased = { id: 'x', createdAt: '2026-11-21T10:00:00.000Z', deletedAt: '2026-11-22T10:00:00.000Z' };
    expect(problems('form.submission.spam', { ...envelope, type: 'form.submission.spam', data: { form: { id: 'ep1', slug: 'contact', name: 'Contact' }, submission: erased } })).toEqual([]);
    expect(problems('request.replied', { ...envelope, type: 'request.replied', data: { request: erased } })).toEqual([]);
    expect(problems('request.replied', { ...envelope, type: 'request.replied', data: { request: { ...erased, comment: 'left behind' } } })).not.toEqual([]);
    expect(problems('deploy.failed', { ...envelope, type: 'deploy.failed', data: { deploy: erased } })).not.toEqual([]);
  });
});
