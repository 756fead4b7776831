import { InviteMemberRequest, InviteMemberResponse, ListMembersQuery, ListMembersResponse, MemberParams, MemberResponse, SetMemberRequest } from '@svc/protocol/api';
import { inviteMember, listMembers, removeMember, setMemberRole } from '../../operations/members.js';
import { ok, principalOf, type CliRoutes } from './cli-api-instance.js';

/** Members of workspaces (`svc members …`; docs/members.md). */
export const memberRoutes: CliRoutes = (app, context) => {
  app.get('/members', { schema: { querystring: ListMembersQuery, response: { 200: ListMembersResponse } } }, async (request) =>
    ok({ members: await listMembers(context, principalOf(request), { workspace: request.query.workspace }) }),
  );

  app.post('/members', { schema: { body: InviteMemberRequest, response: { 200: InviteMemberResponse } } }, async (request) => ok(await inviteMember(context, principalOf(request), request.body)));

  app.post('/members/:id', { schema: { params: MemberParams, body: SetMemberRequest, response: { 200: MemberResponse } } }, async (request) =>
    ok({ member: await setMemberRole(context, principalOf(request), { id: request.params.id, role: request.body.role }) }),
  );

  app.delete('/members/:id', { schema: { params: MemberParams, response: { 200: MemberResponse } } }, async (request) =>
    ok({ member: await removeMember(context, principalOf(request), { id: request.params.id }) }),
  );
};
