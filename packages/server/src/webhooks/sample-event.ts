import type { EventDataMap, EventEnvelope, EventType } from '@svc/protocol';
import { newId } from '../lib/ids.js';

interface SampleScope {
  readonly eventId: string;
  readonly workspace: string;
  readonly project: string;
  readonly now: number;
}

/**
 * A realistic event of any catalog type, for `svc webhooks test`: same envelope, made-up
 * data, marked `"test": true` so that no receiver takes it for real data.
 */
export function sampleEvent<T extends EventType>(type: T, scope: SampleScope): EventEnvelope<T> {
  const createdAt = new Date(scope.now).toISOString();
  return { test: true, id: scope.eventId, type, createdAt, workspace: scope.workspace, project: scope.project, data: sampleData(type, scope.now, createdAt) };
}

function sampleData<T extends EventType>(type: T, now: number, createdAt: string): EventDataMap[T] {
  const data: { [K in EventType]: () => EventDataMap[K] } = {
    'form.submission.created': () => submission(now, createdAt),
    'form.submission.spam': () => {
      const sample = submission(now, createdAt);
      return { ...sample, submission: { ...sample.submission, spamReason: 'links' } };
    },
    'form.submission.deleted': () => ({ form: { id: 'sample-endpoint-id', slug: 'contact', name: 'Contact' }, submission: { id: newId('sub', now), createdAt, deletedAt: createdAt } }),
    'deploy.started': () => deploy(now, createdAt, null),
    'deploy.succeeded': () => deploy(now, createdAt, 'https://site.example.com'),
    'deploy.failed': () => deploy(now, createdAt, null),
    'deploy.promoted': () => ({ ...deploy(now, createdAt, 'https://site.example.com'), promotion: { environment: 'production', previous: null } }),
    'request.created': () => request(now, createdAt),
    'request.replied': () => ({ ...request(now, createdAt), reply: { id: newId('rpl', now), author: 'svc webhooks test', message: 'Thanks, this is a test reply.', createdAt } }),
    'request.resolved': () => request(now, createdAt),
    'request.reopened': () => request(now, createdAt),
  };
  return data[type]();
}

function submission(now: number, createdAt: string): EventDataMap['form.submission.created'] {
  return {
    form: { id: 'sample-endpoint-id', slug: 'contact', name: 'Contact' },
    submission: {
      id: newId('sub', now),
      fields: { name: 'Ada Lovelace', email: 'ada@example.com', message: 'This is a test event sent by svc webhooks test.' },
      files: [],
      createdAt,
    },
  };
}

function deploy(now: number, createdAt: string, url: string | null): EventDataMap['deploy.started'] {
  const id = `dpl-${newId('x', now).slice(2)}`;
  return {
    deploy: {
      id,
      environment: 'production',
      state: url === null ? 'uploading' : 'live',
      liveIn: url === null ? [] : ['production'],
      branch: 'main',
      commit: '0000000000000000000000000000000000000000',
      files: 12,
      bytes: 48_210,
      url,
      previewUrl: `https://${id}.preview.example.com`,
      error: null,
      source: null,
      createdAt,
      finishedAt: url === null ? null : createdAt,
    },
  };
}

function request(now: number, createdAt: string): EventDataMap['request.created'] {
  return {
    request: {
      id: newId('req', now),
      status: 'open',
      environment: 'staging',
      url: 'https://staging.site.example.com/pricing',
      selector: 'main > section:nth-of-type(2) > h2',
      comment: 'This is a test event sent by svc webhooks test.',
      name: null,
      email: null,
      viewport: '1280x720',
      elementBox: { x: 40, y: 312, width: 640, height: 36 },
      screenshot: null,
      screenshotError: null,
      createdAt,
    },
  };
}
