import { defineGroup, handlersIn, lazyCommand } from '../../command.js';

const run = handlersIn(() => import('./run.js'));

const workspaceFlag = { flag: '--workspace <slug>', description: 'the workspace (a workspace token\'s own by default)' } as const;

export const membersInvite = lazyCommand('invite', run('invite'), {
  summary: 'invite someone to a workspace; prints their invite link',
  description:
    'Invite a person by email. An invite link is printed: it works once, for 7 days, and signs them in to the settings area for this workspace only, and only if they belong to no other workspace. When the server has --smtp-url, another link is emailed to them, which signs them in as themselves, in every workspace they belong to. Inviting an invited address again issues new links (the old ones stop working). Invites are limited per workspace and per address (svc serve --invite-limit, --invite-address-limit). Needs an admin token, a token of the workspace, or an owner.',
  arguments: { email: { description: 'their email address' } },
  flags: {
    name: { flag: '--name <name>', description: 'their name in this workspace, shown on their replies (they can change it)' },
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
  summary: 'change a member\'s role (the last owner stays one)',
  arguments: { id: { description: 'the member\'s id, e.g. mem_…' } },
  flags: { role: { flag: '--role <role>', description: 'member or owner', choices: ['member', 'owner'] } },
  examples: ['svc members set mem_06gztftsnm20n7cy0sc5myj7rr --role owner'],
});

export const membersRemove = lazyCommand('remove', run('remove'), {
  summary: 'remove a member: their access to the workspace ends at once',
  arguments: { id: { description: 'the member\'s id, e.g. mem_…' } },
  examples: ['svc members remove mem_06gztftsnm20n7cy0sc5myj7rr'],
});

export const membersCommand = defineGroup({
  name: 'members',
  summary: 'people of a workspace: invite, list, set role, remove',
  commands: [membersInvite, membersList, membersSet, membersRemove],
});
