import type { MemberInfo } from '@svc/protocol/api';
import { Badge, Cell, DataTable, Empty, Notice, PostButton, SecretOnce, Time } from './components.js';
import { Shell, type PageFrame } from './layout.js';

export interface MembersPageProps {
  readonly frame: PageFrame;
  readonly workspace: string;
  readonly members: readonly MemberInfo[];
  /** Owners and tokens of the workspace invite, change roles and remove; members only read. */
  readonly canManage: boolean;
  readonly invited?: { email: string; url: string; emailed: boolean };
  readonly notice?: string;
  readonly error?: string;
}

/** `/settings/{workspace}/members` (docs/members.md). */
export function MembersPage(props: MembersPageProps) {
  const csrf = props.frame.csrfToken;
  const base = `/settings/${encodeURIComponent(props.workspace)}/members`;
  // The last active owner can be neither demoted nor removed (409 last_owner): not offered.
  const owners = props.members.filter((member) => member.role === 'owner' && member.status === 'active');
  const lastOwner = owners.length === 1 ? owners[0]?.id : undefined;
  return (
    <Shell frame={props.frame} title={`Members of ${props.workspace}`} crumbs={[{ label: 'Projects', href: '/settings' }, { label: props.workspace }, { label: 'Members' }]}>
      <div class="page-head">
        <div>
          <h1>Members of {props.workspace}</h1>
          <p class="lead">People who sign in here by email. Owners also manage members and tokens; members do everything else in the workspace.</p>
        </div>
      </div>
      {props.invited ? (
        <SecretOnce id="invite-link" title={`Invitation for ${props.invited.email}`} value={props.invited.url}>
          <p class="small">
            {props.invited.emailed ? 'Another link was emailed to them, which signs them in to every workspace they belong to. ' : ''}This one works once, for 7 days, and signs them in to{' '}
            {props.workspace} only, and not at all if they already belong to another workspace{props.invited.emailed ? ' (then they use the emailed one)' : ''}. Inviting them again makes new links and stops these.
          </p>
        </SecretOnce>
      ) : null}
      {props.notice ? <Notice tone="ok">{props.notice}</Notice> : null}
      {props.error ? <Notice tone="bad">{props.error}</Notice> : null}
      <section class="card" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        {props.members.length === 0 ? (
          <Empty title="No members yet">
            <p>{props.canManage ? 'Invite someone below.' : 'An owner of the workspace can invite people.'}</p>
          </Empty>
        ) : (
          <DataTable headers={props.canManage ? ['Person', 'Role', 'Status', 'Since', ''] : ['Person', 'Role', 'Status', 'Since']}>
            {props.members.map((member) => (
              <tr key={member.id}>
                <Cell>
                  {member.name}
                  <div class="muted small breakable">{member.email}</div>
                </Cell>
                <Cell label="Role">{member.role === 'owner' ? <Badge tone="warn">Owner</Badge> : <span>Member</span>}</Cell>
                <Cell label="Status">{member.status === 'active' ? <Badge tone="ok">Active</Badge> : <Badge tone="neutral">Invited</Badge>}</Cell>
                <Cell label="Since" class="small">
                  <Time at={member.createdAt} />
                </Cell>
                {props.canManage && member.id === lastOwner ? (
                  <td class="actions muted small">The last owner: make someone else owner to change this one.</td>
                ) : props.canManage ? (
                  <td class="actions">
                    <PostButton
                      action={`${base}/${encodeURIComponent(member.id)}/role`}
                      csrf={csrf}
                      label={member.role === 'owner' ? 'Make member' : 'Make owner'}
                      fields={{ role: member.role === 'owner' ? 'member' : 'owner' }}
                    />
                    {member.status === 'invited' ? (
                      <PostButton action={base} csrf={csrf} label="Invite again" fields={{ email: member.email, role: member.role }} />
                    ) : null}
                    <PostButton action={`${base}/${encodeURIComponent(member.id)}/remove`} csrf={csrf} label="Remove" kind="danger" confirm={`Remove ${member.email} from ${props.workspace}? Their access to it ends at once.`} />
                  </td>
                ) : null}
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      {props.canManage ? (
        <section class="card" aria-labelledby="invite-title">
          <h2 id="invite-title">Invite someone</h2>
          <form method="post" action={base}>
            <input type="hidden" name="_csrf" value={csrf ?? ''} />
            <div class="form-row">
              <div class="field">
                <label for="email">Email</label>
                <input id="email" name="email" type="email" required maxLength={254} autocomplete="off" spellcheck={false} />
              </div>
              <div class="field">
                <label for="name">Name</label>
                <input id="name" name="name" type="text" maxLength={100} aria-describedby="name-hint" />
                <p class="hint" id="name-hint">
                  Optional: their name in this workspace; they can change it.
                </p>
              </div>
              <div class="field">
                <label for="role">Role</label>
                <select id="role" name="role">
                  <option value="member">Member</option>
                  <option value="owner">Owner (also members and tokens)</option>
                </select>
              </div>
            </div>
            <button type="submit" class="primary">
              Invite
            </button>
          </form>
        </section>
      ) : null}
    </Shell>
  );
}
