import { Readable } from 'node:stream';
import { ServiceError } from '@svc/protocol';
import {
  DeleteSubmissionResponse,
  EraseSubmissionsRequest,
  EraseSubmissionsResponse,
  ExportQuery,
  FormParams,
  ListSubmissionsQuery,
  ListSubmissionsResponse,
  MoveSubmissionRequest,
  MoveSubmissionResponse,
  ndjsonContentType,
  ProjectParams,
  SubmissionParams,
  SubmissionResponse,
  type ExportLine,
} from '@svc/protocol/api';
import { sendAttachment } from '../attachment.js';
import { deleteSubmission, eraseSubmissionsByEmail, getSubmission, moveSubmission } from '../../operations/submission-changes.js';
import { openSubmissionFile } from '../../operations/submission-files.js';
import { exportSubmissions } from '../../operations/submission-export.js';
import { listSubmissions } from '../../operations/submissions.js';
import { ok, principalOf, type CliRoutes } from './cli-api-instance.js';

/** Submissions: a form's pages (`svc submissions list`), a streamed export, and the owner's operations on one. */
export const submissionRoutes: CliRoutes = (app, context) => {
  app.get(
    '/projects/:workspace/:project/forms/:slug/submissions',
    { schema: { params: FormParams, querystring: ListSubmissionsQuery, response: { 200: ListSubmissionsResponse } } },
    async (request) =>
      listSubmissions(context, principalOf(request), {
        ...request.params,
        state: request.query.state ?? 'inbox',
        limit: request.query.limit,
        cursor: request.query.cursor,
      }),
  );

  // NDJSON, streamed as it is read: the server holds one page of rows at a time, and stops
  // reading when the client goes away.
  app.get('/projects/:workspace/:project/forms/:slug/submissions/export', { schema: { params: FormParams, querystring: ExportQuery } }, async (request, reply) => {
    const exported = await exportSubmissions(context, principalOf(request), { ...request.params, state: request.query.state ?? 'inbox' });
    return reply
      .type(ndjsonContentType)
      .header('cache-control', 'no-store')
      .header('x-export-count', String(exported.header.count))
      .send(Readable.from(ndjsonLines(exported.lines())));
  });

  app.post('/projects/:workspace/:project/submissions/erase', { schema: { params: ProjectParams, body: EraseSubmissionsRequest, response: { 200: EraseSubmissionsResponse } } }, async (request) =>
    ok(await eraseSubmissionsByEmail(context, principalOf(request), { ...request.params, email: request.body.email })),
  );

  app.get('/projects/:workspace/:project/submissions/:id', { schema: { params: SubmissionParams, response: { 200: SubmissionResponse } } }, async (request) =>
    ok(await getSubmission(context, principalOf(request), request.params)),
  );

  app.post('/projects/:workspace/:project/submissions/:id/move', { schema: { params: SubmissionParams, body: MoveSubmissionRequest, response: { 200: MoveSubmissionResponse } } }, async (request) =>
    ok(await moveSubmission(context, principalOf(request), { ...request.params, to: request.body.to })),
  );

  app.delete('/projects/:workspace/:project/submissions/:id', { schema: { params: SubmissionParams, response: { 200: DeleteSubmissionResponse } } }, async (request) =>
    ok(await deleteSubmission(context, principalOf(request), request.params)),
  );

  // A file as it was uploaded: always an attachment, never sniffed (docs/cli-api.md).
  app.get<{ Params: SubmissionParams & { index: string } }>('/projects/:workspace/:project/submissions/:id/files/:index', async (request, reply) => {
    const index = Number(request.params.index);
    if (!/^\d{1,4}$/.test(request.params.index) || !Number.isInteger(index)) throw new ServiceError('not_found', 'no such file');
    const file = await openSubmissionFile(context, principalOf(request), { ...request.params, index });
    return sendAttachment(reply, file);
  });
};

async function* ndjsonLines(lines: AsyncIterable<ExportLine>): AsyncGenerator<string> {
  for await (const line of lines) yield `${JSON.stringify(line)}\n`;
}
