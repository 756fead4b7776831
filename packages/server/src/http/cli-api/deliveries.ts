import { DeliveryParams, DeliveryResponse, ListDeliveriesQuery, ListDeliveriesResponse, ProjectParams, ReplayDeliveriesRequest, ReplayDeliveriesResponse, ResendDeliveryResponse } from '@svc/protocol/api';
import { getDelivery, listDeliveries, resendDelivery } from '../../operations/deliveries.js';
import { replayDeliveries } from '../../operations/replay-deliveries.js';
import { ok, principalOf, type CliRoutes } from './cli-api-instance.js';

/** A project's deliveries (`svc deliveries …`). */
export const deliveryRoutes: CliRoutes = (app, context) => {
  app.get(
    '/projects/:workspace/:project/deliveries',
    { schema: { params: ProjectParams, querystring: ListDeliveriesQuery, response: { 200: ListDeliveriesResponse } } },
    async (request) => ok(await listDeliveries(context, principalOf(request), {
        ...request.params,
        webhookId: request.query.webhook,
        status: request.query.status,
        limit: request.query.limit,
        cursor: request.query.cursor,
      })),
  );

  app.get('/projects/:workspace/:project/deliveries/:id', { schema: { params: DeliveryParams, response: { 200: DeliveryResponse } } }, async (request) =>
    ok(await getDelivery(context, principalOf(request), request.params)),
  );

  app.post('/projects/:workspace/:project/deliveries/:id/resend', { schema: { params: DeliveryParams, response: { 200: ResendDeliveryResponse } } }, async (request) =>
    ok({ delivery: await resendDelivery(context, principalOf(request), request.params) }),
  );

  app.post(
    '/projects/:workspace/:project/deliveries/replay',
    { schema: { params: ProjectParams, body: ReplayDeliveriesRequest, response: { 200: ReplayDeliveriesResponse } } },
    async (request) => {
      const { webhook, since, until, status } = request.body;
      return ok(await replayDeliveries(context, principalOf(request), { ...request.params, webhookId: webhook, since, until, status }));
    },
  );
};
