import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { maxLinksLimit, parseDuration, parseRateLimit, ServiceError } from '@svc/protocol';
import { ndjsonContentType, SubmissionCsv, type RateLimit } from '@svc/protocol/api';
import { formRetentionSeconds, notificationsConfigured, updateFormSettings } from '../../operations/forms.js';
import { deleteSubmission, getSubmission, moveSubmission } from '../../operations/submission-changes.js';
import { exportSubmissions } from '../../operations/submission-export.js';
import { openSubmissionFile } from '../../operations/submission-files.js';
import { countFormSubmissions, listSubmissions } from '../../operations/submissions.js';
import { attachmentDisposition, sendAttachment } from '../../http/attachment.js';
import { redirectTo, sendPage } from '../render.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import { projectPath } from '../views/overview-page.js';
import { DeleteSubmissionPage, SubmissionsPage, type FormSettingsValues, type SubmissionsPageProps } from '../views/submissions-page.js';
import { field, projectPageBase, type Body, type ProjectParams } from './route-params.js';

interface FormParams extends ProjectParams {
  slug: string;
}

interface SubmissionParams extends FormParams {
  id: string;
}

/** Fixed notices after Post/Redirect/Get: the query names one, never free text. */
const notices: Record<string, string> = {
  saved: 'Form settings saved. The form endpoint uses them at once.',
  'moved-spam': 'Submission moved to Spam.',
  'moved-inbox': 'Submission moved to the inbox; webhooks get form.submission.created.',
  deleted: 'Submission deleted, with its files and every copy its events kept.',
};

/** The rate limit field: empty is the server default, else requests/window. */
function rateLimitOf(text: string): RateLimit | null {
  if (text === '') return null;
  try {
    const { max, windowSeconds } = parseRateLimit(text);
    return { max, windowSeconds };
  } catch (error) {
    throw new ServiceError('validation_failed', `rateLimit ${(error as Error).message}`, { errors: { rateLimit: (error as Error).message } });
  }
}

/** The retention field: empty keeps submissions until deleted, else a duration such as `90d`. */
function retentionOf(text: string): number | null {
  if (text === '') return null;
  const refuse = (problem: string) => new ServiceError('validation_failed', `retention ${problem}`, { errors: { retention: problem } });
  let seconds: number;
  try {
    seconds = Math.round(parseDuration(text) / 1000);
  } catch (error) {
    throw refuse((error as Error).message);
  }
  if (seconds < formRetentionSeconds.min || seconds > formRetentionSeconds.max) throw refuse('must be from 1m to 3650d; leave it empty to keep submissions until they are deleted');
  return seconds;
}

/** The most-links field: empty is no limit; the operation checks the bound. */
function maxLinksOf(text: string): number | null {
  if (text.trim() === '') return null;
  const problem = `must be a number from 0 to ${maxLinksLimit}`;
  if (!/^\d{1,9}$/.test(text.trim())) throw new ServiceError('validation_failed', `maxLinks ${problem}`, { errors: { maxLinks: problem } });
  return Number(text.trim());
}

const stateOf = (value: unknown): 'inbox' | 'spam' => (value === 'spam' ? 'spam' : 'inbox');

/** A form's submissions, their files, and exports (docs/settings.md). */
export function formPages(app: FastifyInstance, tools: SettingsRequestTools): void {
  const { context } = tools.dependencies;

  const formPath = (params: FormParams) => `${projectPath(params.workspace, params.project)}/forms/${encodeURIComponent(params.slug)}`;
  const principalOf = (request: FastifyRequest) => tools.session(request).principal;

  const showForm = async (
    request: FastifyRequest,
    reply: FastifyReply,
    params: FormParams,
    query: { state?: string; cursor?: string; done?: string },
    status: number,
    extra: Pick<SubmissionsPageProps, 'settingsError' | 'settingsValues'> = {},
  ) => {
    const { base, principal } = await projectPageBase(tools, request, params);
    const form = base.forms.find((candidate) => candidate.slug === params.slug);
    if (!form) throw new ServiceError('not_found', `no form "${params.slug}"`);
    const state = stateOf(query.state);
    const cursor = query.cursor ? query.cursor : undefined;
    const [page, counts] = await Promise.all([listSubmissions(context, principal, { ...params, state, limit: 25, cursor }), countFormSubmissions(context, principal, params)]);
    const notice = query.done === undefined ? undefined : notices[query.done];
    return sendPage(
      reply,
      status,
      SubmissionsPage({ ...base, form, state, counts, submissions: page.submissions, nextCursor: page.nextCursor, cursor, canNotify: notificationsConfigured(context), ...(notice ? { notice } : {}), ...extra }),
    );
  };

  app.get<{ Params: FormParams; Querystring: { state?: string; cursor?: string; done?: string } }>('/settings/:workspace/:project/forms/:slug', (request, reply) =>
    showForm(request, reply, request.params, request.query, 200),
  );

  app.post<{ Params: FormParams; Body: Body }>('/settings/:workspace/:project/forms/:slug/settings', async (request, reply) => {
    const values: FormSettingsValues = {
      successUrl: field(request.body, 'successUrl'),
      errorUrl: field(request.body, 'errorUrl'),
      notify: field(request.body, 'notify'),
      rateLimit: field(request.body, 'rateLimit'),
      retention: field(request.body, 'retention'),
      captcha: field(request.body, 'captcha'),
      maxLinks: field(request.body, 'maxLinks'),
      origins: field(request.body, 'origins'),
    };
    const secret = field(request.body, 'captchaSecret').trim();
    try {
      await updateFormSettings(context, principalOf(request), {
        ...request.params,
        successUrl: values.successUrl === '' ? null : values.successUrl,
        errorUrl: values.errorUrl === '' ? null : values.errorUrl,
        notify: values.notify.split(',').map((address) => address.trim()).filter((address) => address !== ''),
        rateLimit: rateLimitOf(values.rateLimit),
        retentionSeconds: retentionOf(values.retention),
        ...(values.captcha === '' ? {} : { captcha: values.captcha }),
        ...(secret === '' ? {} : { captchaSecret: secret }),
        maxLinks: maxLinksOf(values.maxLinks),
        origins: values.origins.trim() === '' ? 'any' : values.origins,
      });
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== 'validation_failed') throw error;
      return showForm(request, reply, request.params, {}, 422, { settingsError: `The settings were not saved: ${error.message}`, settingsValues: values });
    }
    return redirectTo(reply, `${formPath(request.params)}?done=saved#settings-title`);
  });

  app.post<{ Params: SubmissionParams; Body: Body }>('/settings/:workspace/:project/forms/:slug/submissions/:id/move', async (request, reply) => {
    const to = field(request.body, 'to') === 'spam' ? 'spam' : 'inbox';
    await moveSubmission(context, principalOf(request), { ...request.params, to });
    // Back to the folder it came from, where it no longer is.
    return redirectTo(reply, `${formPath(request.params)}?${to === 'spam' ? 'done=moved-spam' : 'state=spam&done=moved-inbox'}`);
  });

  app.get<{ Params: SubmissionParams }>('/settings/:workspace/:project/forms/:slug/submissions/:id/delete', async (request, reply) => {
    const { base, principal } = await projectPageBase(tools, request, request.params);
    const form = base.forms.find((candidate) => candidate.slug === request.params.slug);
    const { submission } = await getSubmission(context, principal, request.params);
    if (!form || submission.form !== form.slug) throw new ServiceError('not_found', `no submission "${request.params.id}" in form "${request.params.slug}"`);
    return sendPage(reply, 200, DeleteSubmissionPage({ ...base, form, submission }));
  });

  app.post<{ Params: SubmissionParams }>('/settings/:workspace/:project/forms/:slug/submissions/:id/delete', async (request, reply) => {
    await deleteSubmission(context, principalOf(request), request.params);
    return redirectTo(reply, `${formPath(request.params)}?done=deleted`);
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
