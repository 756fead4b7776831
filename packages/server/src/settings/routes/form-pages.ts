import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '@svc/protocol';
import { ndjsonContentType, SubmissionCsv } from '@svc/protocol/api';
import { exportSubmissions } from '../../operations/submission-export.js';
import { openSubmissionFile } from '../../operations/submission-files.js';
import { listSubmissions } from '../../operations/submissions.js';
import { attachmentDisposition, sendAttachment } from '../../http/attachment.js';
import { sendPage } from '../render.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import { SubmissionsPage } from '../views/submissions-page.js';
import { projectPageBase, type ProjectParams } from './route-params.js';

interface FormParams extends ProjectParams {
  slug: string;
}

const stateOf = (value: unknown): 'inbox' | 'spam' => (value === 'spam' ? 'spam' : 'inbox');

/** A form's submissions, their files, and exports (docs/settings.md). */
export function formPages(app: FastifyInstance, tools: SettingsRequestTools): void {
  const { context } = tools.dependencies;

  app.get<{ Params: FormParams; Querystring: { state?: string; cursor?: string } }>('/settings/:workspace/:project/forms/:slug', async (request, reply) => {
    const { base, principal } = await projectPageBase(tools, request, request.params);
    const form = base.forms.find((candidate) => candidate.slug === request.params.slug);
    if (!form) throw new ServiceError('not_found', `no form "${request.params.slug}"`);
    const state = stateOf(request.query.state);
    const cursor = request.query.cursor ? request.query.cursor : undefined;
    const page = await listSubmissions(context, principal, { ...request.params, state, limit: 25, cursor });
    return sendPage(reply, 200, SubmissionsPage({ ...base, form, state, submissions: page.submissions, nextCursor: page.nextCursor, cursor }));
  });

  app.get<{ Params: FormParams; Querystring: { state?: string; format?: string } }>('/settings/:workspace/:project/forms/:slug/export', async (request, reply) => {
    const principal = tools.session(request).principal;
    const state = stateOf(request.query.state);
    const format = request.query.format === 'ndjson' ? 'ndjson' : 'csv';
    const exported = await exportSubmissions(context, principal, { ...request.params, state });
    const name = `${request.params.project}-${request.params.slug}-${state}.${format}`;
    void reply.header('content-disposition', attachmentDisposition(name)).header('x-content-type-options', 'nosniff');
    void reply.type(format === 'csv' ? 'text/csv; charset=utf-8' : ndjsonContentType);
    const csv = new SubmissionCsv(exported.header);
    async function* body(): AsyncGenerator<string> {
      if (format === 'csv') yield csv.headerRecord();
      for await (const line of exported.lines()) {
        if (format === 'ndjson') yield `${JSON.stringify(line)}\n`;
        else if (line.type === 'submission') yield csv.record(line.submission);
      }
    }
    return reply.send(Readable.from(body()));
  });

  app.get<{ Params: FormParams & { id: string; index: string } }>('/settings/:workspace/:project/forms/:slug/submissions/:id/files/:index', async (request, reply) => {
    const index = Number(request.params.index);
    if (!Number.isInteger(index) || index < 0 || index > 1000) throw new ServiceError('not_found', 'no such file');
    const file = await openSubmissionFile(context, tools.session(request).principal, { ...request.params, index });
    return sendAttachment(reply, file);
  });
}
