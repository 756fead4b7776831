import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseDuration, ServiceError } from '@svc/protocol';
import { projectPinpoints } from '../../operations/pinpoints.js';
import { deleteRequest, getRequestSettings, requestRetentionSeconds, updateRequestSettings } from '../../operations/request-erasure.js';
import { getRequest, listProjectRequests, openRequestScreenshot, projectRequestCounts, replyToRequest, setRequestState } from '../../operations/requests.js';
import { sendAttachment } from '../../http/attachment.js';
import { redirectTo, sendPage } from '../render.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import { projectPath } from '../views/overview-page.js';
import { DeleteRequestPage, RequestsPage, type RequestsPageProps, type RequestTab } from '../views/requests-page.js';
import { field, projectPageBase, type Body, type ProjectParams } from './route-params.js';

interface RequestParams extends ProjectParams {
  id: string;
}

interface RequestsQuery {
  status?: string;
  cursor?: string;
  done?: string;
}

/** Fixed notices after Post/Redirect/Get: the query names one, never free text. */
const notices: Record<string, string> = {
  replied: 'Reply sent. The visitor sees it in the widget; webhooks get request.replied.',
  resolved: 'Request resolved; webhooks get request.resolved.',
  reopened: 'Request reopened; webhooks get request.reopened.',
  deleted: 'Request deleted, with its replies, its screenshot and every copy its events kept.',
  settings: 'Settings saved.',
};

/** The retention field: empty keeps requests until deleted, else a duration such as `180d`. */
function retentionOf(text: string): number | null {
  if (text === '') return null;
  let seconds: number;
  try {
    seconds = Math.round(parseDuration(text) / 1000);
  } catch (error) {
    throw new ServiceError('validation_failed', `Retention: ${(error as Error).message}`);
  }
  if (seconds < requestRetentionSeconds.min || seconds > requestRetentionSeconds.max) {
    throw new ServiceError('validation_failed', 'Retention must be from 1m to 3650d; leave it empty to keep requests until they are deleted.');
  }
  return seconds;
}

const tabOf = (value: unknown): RequestTab => (value === 'resolved' || value === 'spam' ? value : 'open');

/** The requests inbox of a project (docs/pinpoints.md) and its replies, resolve and reopen. */
export function requestPages(app: FastifyInstance, tools: SettingsRequestTools): void {
  const { context } = tools.dependencies;
  const principalOf = (request: FastifyRequest) => tools.session(request).principal;
  const requestsPath = (params: ProjectParams) => `${projectPath(params.workspace, params.project)}/requests`;

  const showRequests = async (request: FastifyRequest, params: ProjectParams, query: RequestsQuery, extra: Pick<RequestsPageProps, 'error' | 'settingsError'> = {}) => {
    const { base, principal } = await projectPageBase(tools, request, params);
    const status = tabOf(query.status);
    const cursor = query.cursor ? query.cursor : undefined;
    const [page, counts, pinpoints, settings] = await Promise.all([
      listProjectRequests(context, principal, { ...params, status, limit: 25, cursor }),
      projectRequestCounts(context, principal, params),
      projectPinpoints(context, principal, params),
      getRequestSettings(context, principal, params),
    ]);
    const notice = query.done === undefined ? undefined : notices[query.done];
    return RequestsPage({ ...base, status, requests: page.requests, nextCursor: page.nextCursor, cursor, counts, pinpoints, settings, ...(notice ? { notice } : {}), ...extra });
  };

  app.get<{ Params: ProjectParams; Querystring: RequestsQuery }>('/settings/:workspace/:project/requests', async (request, reply) =>
    sendPage(reply, 200, await showRequests(request, request.params, request.query)),
  );

  app.post<{ Params: RequestParams; Body: Body }>('/settings/:workspace/:project/requests/:id/replies', async (request, reply) => {
    try {
      await replyToRequest(context, principalOf(request), { ...request.params, message: field(request.body, 'message') });
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== 'validation_failed') throw error;
      return sendPage(reply, 422, await showRequests(request, request.params, {}, { error: 'The reply was not sent: write a message first.' }));
    }
    return redirectTo(reply, `${requestsPath(request.params)}?done=replied#${encodeURIComponent(request.params.id)}`);
  });

  for (const [action, to, done] of [
    ['resolve', 'resolved', 'resolved'],
    ['reopen', 'open', 'reopened'],
  ] as const) {
    app.post<{ Params: RequestParams }>(`/settings/:workspace/:project/requests/:id/${action}`, async (request, reply) => {
      await setRequestState(context, principalOf(request), { ...request.params, to });
      // Back to the tab it came from, where it no longer is.
      return redirectTo(reply, `${requestsPath(request.params)}?${to === 'resolved' ? '' : 'status=resolved&'}done=${done}`);
    });
  }

  app.post<{ Params: ProjectParams; Body: Body }>('/settings/:workspace/:project/requests/settings', async (request, reply) => {
    const typed = field(request.body, 'retention');
    try {
      await updateRequestSettings(context, principalOf(request), { ...request.params, retentionSeconds: retentionOf(typed) });
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== 'validation_failed') throw error;
      return sendPage(reply, 422, await showRequests(request, request.params, {}, { settingsError: { message: error.message, retention: typed } }));
    }
    return redirectTo(reply, `${requestsPath(request.params)}?done=settings#request-settings-title`);
  });

  app.get<{ Params: RequestParams }>('/settings/:workspace/:project/requests/:id/delete', async (request, reply) => {
    const { base, principal } = await projectPageBase(tools, request, request.params);
    const { request: found } = await getRequest(context, principal, request.params);
    return sendPage(reply, 200, DeleteRequestPage({ ...base, request: found }));
  });

  app.post<{ Params: RequestParams; Body: Body }>('/settings/:workspace/:project/requests/:id/delete', async (request, reply) => {
    await deleteRequest(context, principalOf(request), request.params);
    // Back to the tab it was on.
    const tab = tabOf(field(request.body, 'from'));
    return redirectTo(reply, `${requestsPath(request.params)}?${tab === 'open' ? '' : `status=${tab}&`}done=deleted`);
  });

  // The screenshot is shown in the page: a PNG the server checked by its signature, served as
  // image/png, never sniffed and sandboxed; `?download=1` saves it as an attachment instead.
  app.get<{ Params: RequestParams; Querystring: { download?: string } }>('/settings/:workspace/:project/requests/:id/screenshot', async (request, reply) => {
    const file = await openRequestScreenshot(context, principalOf(request), request.params);
    if (request.query.download !== undefined) return sendAttachment(reply, file);
    return reply
      .header('content-type', 'image/png')
      .header('content-length', String(file.size))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, max-age=3600')
      .send(file.content);
  });
}
