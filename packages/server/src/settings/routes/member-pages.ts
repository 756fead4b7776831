import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@svc/protocol';
import type { MemberRole } from '@svc/protocol/api';
import { accountOf, renameAccount } from '../../operations/account.js';
import { inviteMember, removeMember, setMemberRole, workspaceMembers } from '../../operations/members.js';
import { redirectTo, sendPage } from '../render.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import { AccountPage } from '../views/account-page.js';
import { MembersPage, type MembersPageProps } from '../views/members-page.js';
import { field, type Body } from './route-params.js';

type WorkspaceParams = { workspace: string };
const isRole = (value: string): value is MemberRole => value === 'owner' || value === 'member';

/** `/settings/{workspace}/members` and `/settings/account` (docs/members.md). */
export function memberPages(app: FastifyInstance, tools: SettingsRequestTools): void {
  const { context } = tools.dependencies;

  const show = async (request: FastifyRequest<{ Params: WorkspaceParams }>, reply: FastifyReply, status: number, extra: Partial<MembersPageProps>) => {
    const { members, canManage } = await workspaceMembers(context, tools.session(request).principal, { workspace: request.params.workspace });
    return sendPage(reply, status, MembersPage({ frame: tools.frame(request), workspace: request.params.workspace, members, canManage, ...extra }));
  };

  /** A refusal the person can act on is shown on the page; anything else is the error page's. */
  const shown = (error: unknown): error is ServiceError =>
    error instanceof ServiceError && (error.code === 'validation_failed' || error.code === 'conflict' || error.code === 'last_owner' || error.code === 'rate_limited');

  const notices: Record<string, string> = { removed: 'Member removed. Their access to this workspace ended.', role: 'Role changed.' };

  app.get<{ Params: WorkspaceParams; Querystring: { done?: string } }>('/settings/:workspace/members', (request, reply) => {
    const notice = notices[request.query.done ?? ''];
    return show(request, reply, 200, notice ? { notice } : {});
  });

  app.post<{ Params: WorkspaceParams; Body: Body }>('/settings/:workspace/members', async (request, reply) => {
    const role = field(request.body, 'role');
    const name = field(request.body, 'name');
    if (role !== '' && !isRole(role)) return show(request, reply, 400, { error: 'Choose Member or Owner.' });
    try {
      const invited = await inviteMember(context, tools.session(request).principal, {
        email: field(request.body, 'email'),
        workspace: request.params.workspace,
        ...(name ? { name } : {}),
        ...(role ? { role } : {}),
      });
      // The link is in this answer only: it is not stored in clear anywhere.
      return await show(request, reply, 201, { invited: { email: invited.member.email, url: invited.inviteUrl, emailed: context.mail !== null } });
    } catch (error) {
      if (!shown(error)) throw error;
      return show(request, reply, error.status, { error: `Not invited: ${error.message}` });
    }
  });

  app.post<{ Params: WorkspaceParams & { id: string }; Body: Body }>('/settings/:workspace/members/:id/role', async (request, reply) => {
    const role = field(request.body, 'role');
    if (!isRole(role)) return show(request, reply, 400, { error: 'Choose Member or Owner.' });
    try {
      await setMemberRole(context, tools.session(request).principal, { id: request.params.id, role });
    } catch (error) {
      if (!shown(error)) throw error;
      return show(request, reply, error.status, { error: `Role not changed: ${error.message}` });
    }
    return redirectTo(reply, `/settings/${encodeURIComponent(request.params.workspace)}/members?done=role`);
  });

  app.post<{ Params: WorkspaceParams & { id: string } }>('/settings/:workspace/members/:id/remove', async (request, reply) => {
    try {
      await removeMember(context, tools.session(request).principal, { id: request.params.id });
    } catch (error) {
      if (!shown(error)) throw error;
      return show(request, reply, error.status, { error: `Not removed: ${error.message}` });
    }
    return redirectTo(reply, `/settings/${encodeURIComponent(request.params.workspace)}/members?done=removed`);
  });

  const showAccount = async (request: FastifyRequest, reply: FastifyReply, status: number, extra: { notice?: string; error?: string }) => {
    const account = await accountOf(context, tools.session(request).principal);
    return sendPage(reply, status, AccountPage({ frame: tools.frame(request), account, ...extra }));
  };

  app.get<{ Querystring: { done?: string } }>('/settings/account', (request, reply) => showAccount(request, reply, 200, request.query.done === 'saved' ? { notice: 'Name saved.' } : {}));

  app.post<{ Body: Body }>('/settings/account', async (request, reply) => {
    try {
      await renameAccount(context, tools.session(request).principal, { name: field(request.body, 'name') });
    } catch (error) {
      if (!shown(error)) throw error;
      return showAccount(request, reply, error.status, { error: error.message });
    }
    return redirectTo(reply, '/settings/account?done=saved');
  });
}
