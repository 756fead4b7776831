import { defineCommand, defineGroup } from '../../command.js';

const workspaceFlag = { flag: '--workspace <slug>', description: 'the workspace (a workspace token\'s own by default)' } as const;

export const membersInvite = defineCommand({
  name: 'invite',
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
  run: async (context): Promise<number> => (await import('./run.js')).invite(context),
});

export const membersList = defineCommand({
  name: 'list',
  summary: 'list members, by workspace and email',
  flags: { workspace: { flag: '--workspace <slug>', description: 'only this workspace' } },
  examples: ['svc members list --workspace acme', 'svc members list --json | jq -r \'.members[] | select(.status == "invited") | .email\''],
  run: async (context): Promise<number> => (await import('./run.js')).list(context),
});

export const membersSet = defineCommand({
  name: 'set',
  summary: 'change a member\'s role',
  arguments: { id: { description: 'the member\'s id, e.g. mem_…' } },
  flags: { role: { flag: '--role <role>', description: 'member or owner', choices: ['member', 'owner'] } },
  examples: ['svc members set mem_06gztftsnm20n7cy0sc5myj7rr --role owner'],
  run: async (context): Promise<number> => (await import('./run.js')).set(context),
});

export const membersRemove = defineCommand({
  name: 'remove',
  summary: 'remove a member: their sessions end at once',
  arguments: { id: { description: 'the member\'s id, e.g. mem_…' } },
  examples: ['svc members remove mem_06gztftsnm20n7cy0sc5myj7rr'],
  run: async (context): Promise<number> => (await import('./run.js')).remove(context),
});

export const membersCommand = defineGroup({
  name: 'members',
  summary: 'people of a workspace: invite, list, set role, remove',
  commands: [membersInvite, membersList, membersSet, membersRemove],
});
