import { cliPaths } from '@svc/protocol';
import { InviteMemberResponse, ListMembersResponse, MemberResponse } from '@svc/protocol/api';
import type { ContextOf } from '../../command.js';
import { requireArgument } from '../../require-argument.js';
import { callServer } from '../../server-call.js';
import type { membersInvite, membersList, membersRemove, membersSet } from './commands.js';

/** The invite link alone on stdout (so `$(svc members invite …)` captures it); the rest on stderr. */
export async function invite(context: ContextOf<typeof membersInvite>): Promise<number> {
  const { options } = context;
  const email = requireArgument(context.args.email, 'the email address to invite');
  return callServer(
    context,
    (api) => api.post(cliPaths.members(), { email, name: options.name, role: options.role, workspace: options.workspace }, InviteMemberResponse),
    (result) => result.inviteUrl,
    (result) =>
      `Invited ${result.member.email} to ${result.member.workspace} as ${result.member.role} (${result.member.id}). This link works once, for 7 days, and opens ${result.member.workspace} only; the invite emailed to them (with --smtp-url) signs them in as themselves.`,
  );
}

export async function list(context: ContextOf<typeof membersList>): Promise<number> {
  const { out, options } = context;
  return callServer(
    context,
    (api) => api.get(cliPaths.members(), ListMembersResponse, options.workspace === undefined ? undefined : { workspace: options.workspace }),
    (result) =>
      out.table(result.members, [
        { header: 'ID', value: (member) => member.id },
        { header: 'EMAIL', value: (member) => member.email },
        { header: 'NAME', value: (member) => member.name },
        { header: 'WORKSPACE', value: (member) => member.workspace },
        { header: 'ROLE', value: (member) => member.role },
        { header: 'STATUS', value: (member) => member.status },
      ]),
  );
}

export async function set(context: ContextOf<typeof membersSet>): Promise<number> {
  const id = requireArgument(context.args.id, 'the id of the member');
  const role = requireArgument(context.options.role, 'the role (--role member or --role owner)');
  return callServer(
    context,
    (api) => api.post(cliPaths.member(id), { role }, MemberResponse),
    (result) => `${result.member.email} is now ${result.member.role} of ${result.member.workspace}.`,
  );
}

export async function remove(context: ContextOf<typeof membersRemove>): Promise<number> {
  const id = requireArgument(context.args.id, 'the id of the member to remove');
  return callServer(
    context,
    (api) => api.delete(cliPaths.member(id), MemberResponse),
    (result) => `Removed ${result.member.email} from ${result.member.workspace}; their access to it has ended.`,
  );
}
