import { Readable } from 'node:stream';
import { ExportQuery, FormParams, ListSubmissionsQuery, ListSubmissionsResponse, ndjsonContentType, type ExportLine } from '@svc/protocol/api';
import { exportSubmissions } from '../../operations/submission-export.js';
import { listSubmissions } from '../../operations/submissions.js';
import { principalOf, type CliRoutes } from './cli-api-instance.js';

/** A form's submissions: pages (`svc submissions list`) and a streamed export. */
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
};

async function* ndjsonLines(lines: AsyncIterable<ExportLine>): AsyncGenerator<string> {
  for await (const line of lines) yield `${JSON.stringify(line)}\n`;
}
