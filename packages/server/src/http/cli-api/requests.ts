import {
  DeleteRequestResponse,
  ListRequestsQuery,
  ListRequestsResponse,
  PinpointsResponse,
  ProjectParams,
  ReplyRequest,
  RequestChangeResponse,
  RequestParams,
  RequestResponse,
  RequestSettingsRequest,
  RequestSettingsResponse,
} from '@svc/protocol/api';
import { projectPinpoints } from '../../operations/pinpoints.js';
import { deleteRequest, getRequestSettings, updateRequestSettings } from '../../operations/request-erasure.js';
import { getRequest, listProjectRequests, openRequestScreenshot, replyToRequest, setRequestState } from '../../operations/requests.js';
import { sendAttachment } from '../attachment.js';
import { ok, principalOf, type CliRoutes } from './cli-api-instance.js';

/** Pinpoints: the widget's tag (`svc pinpoints snippet`) and the requests inbox (`svc requests …`). */
export const requestRoutes: CliRoutes = (app, context) => {
  app.get('/projects/:workspace/:project/pinpoints', { schema: { params: ProjectParams, response: { 200: PinpointsResponse } } }, async (request) =>
    ok(await projectPinpoints(context, principalOf(request), request.params)),
  );

  app.get('/projects/:workspace/:project/requests', { schema: { params: ProjectParams, querystring: ListRequestsQuery, response: { 200: ListRequestsResponse } } }, async (request) =>
    ok(await listProjectRequests(context, principalOf(request), { ...request.params, ...request.query, status: request.query.status ?? 'open' })),
  );

  app.get('/projects/:workspace/:project/requests/:id', { schema: { params: RequestParams, response: { 200: RequestResponse } } }, async (request) =>
    ok(await getRequest(context, principalOf(request), request.params)),
  );

  app.post('/projects/:workspace/:project/requests/:id/replies', { schema: { params: RequestParams, body: ReplyRequest, response: { 200: RequestResponse } } }, async (request) =>
    ok(await replyToRequest(context, principalOf(request), { ...request.params, message: request.body.message })),
  );

  for (const [action, to] of [
    ['resolve', 'resolved'],
    ['reopen', 'open'],
  ] as const) {
    app.post(`/projects/:workspace/:project/requests/:id/${action}`, { schema: { params: RequestParams, response: { 200: RequestChangeResponse } } }, async (request) =>
      ok(await setRequestState(context, principalOf(request), { ...request.params, to })),
    );
  }

  app.delete('/projects/:workspace/:project/requests/:id', { schema: { params: RequestParams, response: { 200: DeleteRequestResponse } } }, async (request) =>
    ok(await deleteRequest(context, principalOf(request), request.params)),
  );

  app.get('/projects/:workspace/:project/requests-settings', { schema: { params: ProjectParams, response: { 200: RequestSettingsResponse } } }, async (request) =>
    ok({ settings: await getRequestSettings(context, principalOf(request), request.params), changed: false }),
  );

  app.patch('/projects/:workspace/:project/requests-settings', { schema: { params: ProjectParams, body: RequestSettingsRequest, response: { 200: RequestSettingsResponse } } }, async (request) =>
    ok(await updateRequestSettings(context, principalOf(request), { ...request.params, retentionSeconds: request.body.retentionSeconds })),
  );

  // The screenshot as it was sent: an attachment, never rendered inline.
  app.get('/projects/:workspace/:project/requests/:id/screenshot', { schema: { params: RequestParams } }, async (request, reply) =>
    sendAttachment(reply, await openRequestScreenshot(context, principalOf(request), request.params)),
  );
};
