import type { Readable } from 'node:stream';
import {
  DeployFileParams,
  DeployParams,
  DeployResponse,
  ListDeploysQuery,
  ListDeploysResponse,
  ProjectParams,
  PromoteDeployRequest,
  RollbackRequest,
  StartDeployRequest,
  StartDeployResponse,
  SwitchDeployResponse,
  UploadDeployFileResponse,
} from '@svc/protocol/api';
import { uploadDeployFile } from '../../operations/deploy-uploads.js';
import { finalizeDeploy, listProjectDeploys, promoteDeploy, rollbackDeploy, startDeploy } from '../../operations/deploys.js';
import { ok, principalOf, type CliRoutes } from './cli-api-instance.js';

/** A manifest of 20,000 files with long paths is a few MiB of JSON. */
const manifestBodyLimit = 32 * 1024 * 1024;

/** Deploys (docs/hosting.md): start with a manifest, upload what is missing, finalise; list, promote, roll back. */
export const deployRoutes: CliRoutes = (app, context) => {
  // A file's bytes arrive as they are, streamed into the file store (never whole in memory).
  app.addContentTypeParser('application/octet-stream', { bodyLimit: context.options.deployLimits.fileBytes }, (_request, payload, done) => done(null, payload));

  app.get('/projects/:workspace/:project/deploys', { schema: { params: ProjectParams, querystring: ListDeploysQuery, response: { 200: ListDeploysResponse } } }, async (request) =>
    ok(await listProjectDeploys(context, principalOf(request), { ...request.params, ...request.query })),
  );

  app.post(
    '/projects/:workspace/:project/deploys',
    { bodyLimit: manifestBodyLimit, schema: { params: ProjectParams, body: StartDeployRequest, response: { 200: StartDeployResponse } } },
    async (request) => ok(await startDeploy(context, principalOf(request), { ...request.params, ...request.body })),
  );

  app.put(
    '/projects/:workspace/:project/deploys/:id/files/:sha256',
    { bodyLimit: context.options.deployLimits.fileBytes, schema: { params: DeployFileParams, response: { 200: UploadDeployFileResponse } } },
    async (request) => {
      const length = request.headers['content-length'];
      const input = { ...request.params, contentLength: length === undefined ? undefined : Number(length) };
      return ok(await uploadDeployFile(context, principalOf(request), input, request.body as Readable));
    },
  );

  app.post('/projects/:workspace/:project/deploys/:id/finalize', { schema: { params: DeployParams, response: { 200: DeployResponse } } }, async (request) =>
    ok(await finalizeDeploy(context, principalOf(request), request.params)),
  );

  app.post('/projects/:workspace/:project/deploys/:id/promote', { schema: { params: DeployParams, body: PromoteDeployRequest, response: { 200: SwitchDeployResponse } } }, async (request) =>
    ok(await promoteDeploy(context, principalOf(request), { ...request.params, to: request.body.to })),
  );

  app.post('/projects/:workspace/:project/deploys/rollback', { schema: { params: ProjectParams, body: RollbackRequest, response: { 200: SwitchDeployResponse } } }, async (request) =>
    ok(await rollbackDeploy(context, principalOf(request), { ...request.params, ...request.body })),
  );
};
