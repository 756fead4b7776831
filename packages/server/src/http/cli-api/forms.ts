import { FormParams, FormSettingsRequest, FormSettingsResponse, ListFormsResponse, ProjectParams, SetRateLimitRequest, SetRateLimitResponse } from '@svc/protocol/api';
import { listForms, setFormRateLimit, updateFormSettings } from '../../operations/forms.js';
import { ok, principalOf, type CliRoutes } from './cli-api-instance.js';

/** A project's forms (`svc forms list`, `svc forms set`, `svc forms set-rate-limit`). */
export const formRoutes: CliRoutes = (app, context) => {
  app.get('/projects/:workspace/:project/forms', { schema: { params: ProjectParams, response: { 200: ListFormsResponse } } }, async (request) =>
    ok(await listForms(context, principalOf(request), request.params)),
  );

  app.patch('/projects/:workspace/:project/forms/:slug', { schema: { params: FormParams, body: FormSettingsRequest, response: { 200: FormSettingsResponse } } }, async (request) =>
    ok(await updateFormSettings(context, principalOf(request), { ...request.params, ...request.body })),
  );

  app.put('/projects/:workspace/:project/forms/:slug/rate-limit', { schema: { params: FormParams, body: SetRateLimitRequest, response: { 200: SetRateLimitResponse } } }, async (request) =>
    ok(await setFormRateLimit(context, principalOf(request), { ...request.params, rateLimit: request.body.rateLimit })),
  );
};
