import { defineGroup, handlersIn, lazyCommand } from '../../command.js';

const run = handlersIn(() => import('./run.js'));

const workspaceFlag = { flag: '--workspace <slug>', description: 'the workspace (a workspace token\'s own by default)' } as const;

export const membersInvite = lazyCommand('invite', run('invite'), {
  summary: 'invite someone to a workspace; prints their invite link',
  description:
    'Invite a person by email. The invite link is printed (and emailed when the server has --smtp-url): it works once, for 7 days, and signs them in to the settings area as a member of the workspace. Inviting an invited address again issues a new link (the old one stops working). Needs an admin token, a token of the workspace, or an owner.',
  arguments: { email: { description: 'their email address' } },
  flags: {
    name: { flag: '--name <name>', description: 'their name, shown on their replies (they can change it)' },
    role: { flag: '--role <role>', description: 'member (default) or owner (also manages members and tokens)', choices: ['member', 'owner'] },
    workspace: workspaceFlag,
  },
  examples: ['svc members invite sam@agency.example --name Sam --workspace acme', 'svc members invite lee@agency.example --role owner --json'],
});

export const membersList = lazyCommand('list', run('list'), {
  summary: 'list members, by workspace and email',
  flags: { workspace: { flag: '--workspace <slug>', description: 'only this workspace' } },
  examples: ['svc members list --workspace acme', 'svc members list --json | jq -r \'.members[] | select(.status == "invited") | .email\''],
});

export const membersSet = lazyCommand('set', run('set'), {
  summary: 'change a member\'s role',
  arguments: { id: { description: 'the member\'s id, e.g. mem_…' } },
  flags: { role: { flag: '--role <role>', description: 'member or owner', choices: ['member', 'owner'] } },
  examples: ['svc members set mem_06gztftsnm20n7cy0sc5myj7rr --role owner'],
});

export const membersRemove = lazyCommand('remove', run('remove'), {
  summary: 'remove a member: their sessions end at once',
  arguments: { id: { description: 'the member\'s id, e.g. mem_…' } },
  examples: ['svc members remove mem_06gztftsnm20n7cy0sc5myj7rr'],
});

export const membersCommand = defineGroup({
  name: 'members',
  summary: 'people of a workspace: invite, list, set role, remove',
  commands: [membersInvite, membersList, membersSet, membersRemove],
});
